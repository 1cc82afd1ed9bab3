@testable import FTSearchFormats
@testable import FTSearchEngine
@testable import FTSearchKit

/// What a reader produced for one call: a record, or an error.
enum ReadEvent: Equatable, CustomStringConvertible {
    case record(line: Int, section: String?, fields: [JSONMember])
    case failure(RecordSyntaxError)

    /// A record of string fields, as CSV and TSV produce.
    static func strings(line: Int, _ fields: KeyValuePairs<String, String>) -> ReadEvent {
        .record(
            line: line, section: nil,
            fields: fields.map { JSONMember(key: $0.key, value: .string($0.value)) })
    }

    /// A recoverable error.
    static func skipped(line: Int, column: Int? = nil, _ reason: String) -> ReadEvent {
        .failure(RecordSyntaxError(line: line, column: column, reason: reason, isRecoverable: true))
    }

    /// An error that ends reading.
    static func fatal(line: Int, column: Int? = nil, _ reason: String) -> ReadEvent {
        .failure(
            RecordSyntaxError(line: line, column: column, reason: reason, isRecoverable: false))
    }

    var description: String {
        switch self {
        case .record(let line, let section, let fields):
            "record(line \(line), section \(section ?? "-"): \(JSONValue.object(fields).jsonText))"
        case .failure(let error):
            "\(error.isRecoverable ? "skipped" : "fatal")(line \(error.line), column \(error.column.map(String.init) ?? "-"): \(error.reason))"
        }
    }
}

/// Reads every record, going on after recoverable errors and stopping after one that is not.
/// An unrecoverable error must be sticky: the call after it must throw it again.
func readEvents(_ reader: inout some RecordReader, limit: Int = 100_000) -> [ReadEvent] {
    var events: [ReadEvent] = []
    while events.count < limit {
        do {
            guard let record = try reader.nextRecord() else { return events }
            events.append(
                .record(line: record.line, section: record.section, fields: record.fields))
        } catch {
            events.append(.failure(error))
            if !error.isRecoverable {
                do {
                    _ = try reader.nextRecord()
                    events.append(.fatal(line: 0, "reader went on after an unrecoverable error"))
                } catch let again {
                    if again != error { events.append(.failure(again)) }
                }
                return events
            }
        }
    }
    return events
}

/// The bytes of `text` (a shorthand for readable tests).
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Chunk sizes and buffer capacities that make records straddle every kind of boundary.
enum Boundaries {
    static let chunkSizes = [1, 2, 3, 5, 7, 64, 1 << 16]
    static let bufferCapacities = [1, 2, 4, 16, 1 << 16]
}
