import CSQLite
import FTSearchSQLite

/// The SQL of every statement a connection runs while the log lives, as `sqlite3_trace_v2`
/// reports it (https://sqlite.org/c3ref/trace_v2.html): for tests of which statements and
/// transactions a piece of work runs.
final class StatementLog {
    private let handle: OpaquePointer
    private(set) var statements: [String] = []

    init(on database: Database) {
        handle = database.handle
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, sql in
                guard let context, let sql else { return 0 }
                Unmanaged<StatementLog>.fromOpaque(context).takeUnretainedValue().statements
                    .append(String(cString: sql.assumingMemoryBound(to: CChar.self)))
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        sqlite3_trace_v2(handle, 0, nil, nil)
    }
}
