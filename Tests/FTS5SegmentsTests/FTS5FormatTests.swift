import FTSearchSQLite
import FTSearchTestSupport
import Testing

@testable import FTS5Segments

/// The decoder reads what FTS5 wrote: every term's doclist, decoded from every segment and
/// resolved (the newest entry of a row wins, delete markers drop it), holds exactly the rows
/// and the hits per column that FTS5's own `fts5vocab` table lists, and the structure and
/// averages records give FTS5's row and token counts — over segments left by several
/// transactions, updates and deletes, long columns, automerges and `optimize`.
@Suite struct FTS5FormatTests {
    let directory: TemporaryDirectory
    let database: Database

    init() throws {
        directory = try TemporaryDirectory()
        database = try Database(path: directory.file("format.sqlite"))
        try database.execute(
            sql: "CREATE VIRTUAL TABLE t USING fts5(a, b, tokenize='unicode61', prefix='1 2')")
        try database.execute(sql: "CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    }

    static let words = [
        "ann", "anna", "annabel", "bo", "bob", "smith", "smithson", "müller", "zoë", "x",
        "acme", "amber", "a",
    ]

    /// Random rows in `transactions` commits (a segment each), then random updates and deletes.
    private func write(seed: UInt64, transactions: Int, rows: Int) throws {
        var random = SeededGenerator(seed: seed)
        func text(_ count: Int) -> String {
            (0..<count).map { _ in Self.words.randomElement(using: &random)! }
                .joined(separator: " ")
        }
        for _ in 0..<transactions {
            try database.execute(sql: "BEGIN")
            for _ in 0..<rows {
                try database.execute(
                    sql: "INSERT INTO t(a, b) VALUES (?1, ?2)",
                    arguments: [
                        text(Int.random(in: 1...4, using: &random)),
                        text(Int.random(in: 0...6, using: &random)),
                    ])
            }
            try database.execute(sql: "COMMIT")
        }
        // Columns of more than 127 and 16,383 tokens: multi-byte varints, lists across pages.
        try database.execute(
            sql: "INSERT INTO t(a, b) VALUES ('ann', ?1), (?2, 'bob')",
            arguments: [text(300), text(16_400)])
        let count = transactions * rows
        for _ in 0..<count / 10 {
            let rowid = Int64.random(in: 1...Int64(count), using: &random)
            if Bool.random(using: &random) {
                try database.execute(
                    sql: "UPDATE t SET a = ?1 WHERE rowid = ?2", arguments: [text(2), rowid])
            } else {
                try database.execute(sql: "DELETE FROM t WHERE rowid = ?1", arguments: [rowid])
            }
        }
    }

    /// Each term's rows and hits per column, as FTS5 lists them.
    private func expectedHits() throws -> [String: [Int64: [UInt32]]] {
        var hits: [String: [Int64: [UInt32]]] = [:]
        try database.cachedStatement(sql: "SELECT term, doc, col FROM v").forEachRow { row in
            let column = row.text(at: 2) == "a" ? 0 : 1
            hits[row.text(at: 0)!, default: [:]][row.int64(at: 1), default: [0, 0]][column] += 1
        }
        return hits
    }

    /// Each term's rows and hits per column, decoded from the segments.
    private func decodedHits(of terms: some Sequence<String>) throws -> [String: [Int64: [UInt32]]]
    {
        let reader = FTS5SegmentReader(
            database: database, index: "t", columnCount: 2, matchedColumns: nil)
        defer { reader.close() }
        let structure = try FTS5Structure(
            structure: reader.record(10), averages: reader.record(1), columnCount: 2)
        #expect(
            try structure.rowCount
                == database.cachedStatement(sql: "SELECT count(*) FROM t").firstRow {
                    $0.int64(at: 0)
                })
        #expect(
            try structure.tokenCount
                == database.cachedStatement(sql: "SELECT count(*) FROM v").firstRow {
                    $0.int64(at: 0)
                })
        var decoded: [String: [Int64: [UInt32]]] = [:]
        for term in terms {
            let key = [UInt8(ascii: "0")] + Array(term.utf8)
            let lists = try structure.segments.map { segment in
                let entries = DoclistEntries(columnCount: 2)
                try reader.appendDoclist(of: key, in: segment, to: entries)
                return entries
            }
            let resolved = DoclistEntries.resolving(newestFirst: lists, columnCount: 2)
            for entry in 0..<resolved.count {
                decoded[term, default: [:]][resolved.rowids[entry]] = [
                    resolved.hits[entry * 2], resolved.hits[entry * 2 + 1],
                ]
            }
        }
        return decoded
    }

    @Test(arguments: ["segments", "automerged", "optimized"])
    func everyDoclistIsWhatFTS5Lists(layout: String) throws {
        if layout == "automerged" {
            try database.execute(sql: "INSERT INTO t(t, rank) VALUES ('automerge', 2)")
        }
        try write(seed: 7, transactions: 12, rows: 150)
        if layout == "optimized" {
            try database.execute(sql: "INSERT INTO t(t) VALUES ('optimize')")
        }
        let expected = try expectedHits()
        #expect(expected.count == Self.words.count)
        let decoded = try decodedHits(of: expected.keys.sorted() + ["absent"])
        #expect(decoded.keys.sorted() == expected.keys.sorted())
        for term in expected.keys.sorted() {
            #expect(decoded[term] == expected[term], "\(layout): \(term)")
        }
    }

    /// Every term starting with a prefix, in term order, each with FTS5's rows.
    @Test func termsOfAPrefixComeInTermOrder() throws {
        try write(seed: 3, transactions: 1, rows: 400)
        try database.execute(sql: "INSERT INTO t(t) VALUES ('optimize')")
        let reader = FTS5SegmentReader(
            database: database, index: "t", columnCount: 2, matchedColumns: nil)
        defer { reader.close() }
        let structure = try FTS5Structure(
            structure: reader.record(10), averages: reader.record(1), columnCount: 2)
        let expected = try expectedHits()
        #expect(structure.segments.count == 1)
        let segment = try #require(structure.segments.first)
        let found = try reader.termDoclists(
            startingWith: [UInt8(ascii: "0")] + Array("an".utf8), in: segment, wanted: nil)
        #expect(
            found.map { String(decoding: $0.term.dropFirst(), as: UTF8.self) } == [
                "ann", "anna", "annabel",
            ])
        for (term, entries) in found {
            let name = String(decoding: term.dropFirst(), as: UTF8.self)
            #expect(entries.count == expected[name]?.count, "\(name)")
        }
    }
}
