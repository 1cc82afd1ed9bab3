@testable import FTSearchFormats
import Foundation
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// JSONTestSuite (nst/JSONTestSuite): `y_` documents must be accepted with the value Foundation's
/// `JSONSerialization` finds, `n_` documents rejected with a located error, `i_` documents may go
/// either way but must not crash.
///
/// Each document is read three ways: bare by ``JSONParser``; as the value of a field of the one
/// record of `[{"v": DOC}]` by ``JSONArrayReader``; and as a whole file by ``JSONArrayReader``.
@Suite struct JSONTestSuiteTests {
    static let folder = "JSONTestSuite/test_parsing"
    static let accepted = ConformanceSuite.fileNames(in: folder, prefix: "y_", suffix: ".json")
    static let rejected = ConformanceSuite.fileNames(in: folder, prefix: "n_", suffix: ".json")
    static let eitherWay = ConformanceSuite.fileNames(in: folder, prefix: "i_", suffix: ".json")

    @Test func suiteIsPresent() {
        #expect(Self.accepted.count == 95)
        #expect(Self.rejected.count == 188)
        #expect(Self.eitherWay.count == 35)
    }

    // MARK: - Accepted

    @Test(arguments: accepted)
    func acceptedDocument(file: String) throws {
        let document = try ConformanceSuite.contents(of: "\(Self.folder)/\(file)")
        let expected = try #require(try ComparableJSON.parsedByFoundation(document))

        let bare = try JSONParser.parseDocument(document)
        #expect(ComparableJSON(bare) == expected)

        #expect(
            readWrapped(document) == [
                .record(line: 1, section: nil, fields: [JSONMember(key: "v", value: bare)])
            ])

        guard case .array(let elements) = bare else { return }
        let asFile = readFile(document)
        #expect(asFile.count == elements.count)
        for (event, element) in zip(asFile, elements) {
            if case .object(let members) = element {
                guard case .record(_, nil, let fields) = event else {
                    Issue.record("expected a record, got \(event)")
                    continue
                }
                #expect(fields == members)
            } else {
                guard case .failure(let error) = event else {
                    Issue.record("expected an error, got \(event)")
                    continue
                }
                #expect(
                    error.isRecoverable
                        && error.reason == "expected an object, found \(element.kindDescription)")
            }
        }
    }

    // MARK: - Rejected

    @Test(arguments: rejected)
    func rejectedDocument(file: String) throws {
        let document = try ConformanceSuite.contents(of: "\(Self.folder)/\(file)")
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parseDocument(document) }

        let wrapped = readWrapped(document)
        let wrappedError = try #require(
            Self.finalError(of: wrapped), "wrapped document accepted: \(wrapped)")
        #expect(wrappedError.line >= 1 && wrappedError.column != nil)
        // Wrapping may let a prefix of the document pass as the value and the rest close the
        // wrapper; the bare parse above is what rejects those documents.
        let recordsBeforeTheError = wrapped.filter { if case .record = $0 { true } else { false } }
        #expect(
            recordsBeforeTheError.isEmpty == !Self.rejectedOnlyAfterAPrefix.keys.contains(file),
            "\(wrapped)")

        let asFile = readFile(document)
        let fileError = try #require(Self.finalError(of: asFile), "file accepted: \(asFile)")
        #expect(fileError.line >= 1 && fileError.column != nil)
    }

    /// The `n_` documents of which `[{"v": DOC}]` yields a record before its error, because a
    /// prefix of DOC is a whole value and the rest closes the wrapper.
    static let rejectedOnlyAfterAPrefix = [
        "n_structure_object_followed_by_closing_object.json":
            "{}} makes [{\"v\": {}}}]: {\"v\": {}} is whole"
    ]

    // MARK: - Either way

    @Test(arguments: eitherWay)
    func implementationDefinedDocument(file: String) throws {
        let document = try ConformanceSuite.contents(of: "\(Self.folder)/\(file)")
        let bare = Result { () throws(JSONSyntaxError) in try JSONParser.parseDocument(document) }
        let wrapped = readWrapped(document)
        switch bare {
        case .success(let value):
            #expect(
                wrapped == [
                    .record(line: 1, section: nil, fields: [JSONMember(key: "v", value: value)])
                ])
        case .failure(let error):
            #expect(error.line >= 1 && error.column >= 1)
            #expect(Self.finalError(of: wrapped) != nil, "\(wrapped)")
        }
        #expect(readFile(document).count < 100_000)
    }

    // MARK: - Deep nesting

    @Test func hundredThousandNestedArraysAreRejectedEveryWay() {
        let document =
            Array(repeating: JSONByte.openBracket, count: 100_000)
            + Array(repeating: JSONByte.closeBracket, count: 100_000)
        let reason = "nesting deeper than 512 levels"
        #expect(throws: JSONSyntaxError(line: 1, column: 513, reason: reason)) {
            try JSONParser.parseDocument(document)
        }
        #expect(readWrapped(document) == [.fatal(line: 1, column: 8 + 510, reason)])
        #expect(readFile(document) == [.fatal(line: 1, column: 513, reason)])
        var lines = NDJSONReader(source: MemoryInput(document + [0x0A] + bytes("{\"ok\": true}")))
        #expect(
            readEvents(&lines) == [
                .skipped(line: 1, column: 513, reason),
                .record(line: 2, section: nil, fields: [JSONMember(key: "ok", value: .bool(true))]),
            ])
    }

    // MARK: - Reading

    private func readWrapped(_ document: [UInt8]) -> [ReadEvent] {
        readFile(bytes("[{\"v\": ") + document + bytes("}]"))
    }

    private func readFile(_ document: [UInt8]) -> [ReadEvent] {
        var reader = JSONArrayReader(source: MemoryInput(document, chunkSize: 7))
        return readEvents(&reader)
    }

    /// The error that ended reading, if reading ended with one.
    private static func finalError(of events: [ReadEvent]) -> RecordSyntaxError? {
        guard case .failure(let error)? = events.last, !error.isRecoverable else { return nil }
        return error
    }
}
