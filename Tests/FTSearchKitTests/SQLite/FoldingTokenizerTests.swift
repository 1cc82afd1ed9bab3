import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// ftsearch's own tokenizers: the letters unicode61 leaves alone fold in the index, the query
/// and history keys alike, and the trigram tokenizer pads and anchors words.
@Suite struct FoldingTokenizerTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        try index.importPeople([
            ("Søren", "Kierkegaard", "Ørsted"), ("Łukasz", "Straße", "Æble Œuvre"),
            ("Soren", "Dahl", ""), ("Þóra", "Ðorđević", "Iıı"),
        ])
    }

    @Test(arguments: [
        ("Søren Łukasz", ["soren", "lukasz"]),
        ("STRASSE Straße ẞ", ["strasse", "strasse", "ss"]),
        ("Æble œuvre", ["aeble", "oeuvre"]),
        ("Ðorđević Þóra", ["dordevic", "thora"]),
        ("Iıı Zoë O'Brien", ["iii", "zoe", "o", "brien"]),
    ])
    func foldsWhatUnicode61LeavesAlone(text: String, expected: [String]) throws {
        #expect(try index.tokenizer.tokens(in: text).map(\.text) == expected)
    }

    @Test func accentFormsAreLowercasedAsStringsAre() {
        // Every scalar of the first two blocks of the byte-wise path and past it, alone and in
        // words, and a few a byte at a time cannot do.
        var texts = (0x20...0x24F).compactMap(Unicode.Scalar.init).map { String($0) }
        texts += ["ÀÉÎÕÜ", "Ærø ×÷ ßẞ", "ŁÓDŹ", "ΣΑΣ", "İstanbul", "Ǆemal", "Ab\u{301}C", "ǅ"]
        for text in texts {
            var lowercased: [UInt8] = [0x01]
            Array(text.utf8).withUnsafeBytes {
                FoldingTokenizer.appendLowercased($0, to: &lowercased)
            }
            #expect(lowercased == [0x01] + Array(text.lowercased().utf8), "\(text)")
        }
    }

    @Test func sourceRangesCoverTheOriginalLetters() throws {
        let tokens = try index.tokenizer.tokens(in: "Straße Ø")
        #expect(tokens.map(\.sourceRange) == [0..<7, 8..<10])
    }

    @Test(arguments: [
        ("soren", ["Soren Dahl", "Søren Kierkegaard"]),
        ("søren", ["Soren Dahl", "Søren Kierkegaard"]),
        ("lukasz", ["Łukasz Straße"]),
        ("strasse", ["Łukasz Straße"]),
        ("orsted", ["Søren Kierkegaard"]),
        ("aeble", ["Łukasz Straße"]),
        ("dordevic thora", ["Þóra Ðorđević"]),
    ])
    func foldedQueriesFindTheRecords(text: String, expected: [String]) throws {
        #expect(try index.names(for: text).sorted() == expected)
    }

    @Test func historyKeysFoldTheSameWay() throws {
        try index.history.record("Søren  STRAßE", kinds: .all, resultCount: 1)
        try index.history.record("soren strasse", kinds: .all, resultCount: 1)
        let entries = try index.history.entries(limit: 10)
        #expect(entries.count == 1)
        #expect(entries.first?.useCount == 2)
    }

    @Test func trigramTokenizerPadsAndAnchorsWords() throws {
        let trigrams = try FTS5Tokenizer(
            database: Database.openAdditionalConnection(path: ":memory:"),
            name: FoldingTokenizer.trigramName)
        // Queries: no padding unless anchored; shorter than three letters comes out whole.
        #expect(trigrams.tokens(in: "Anna").map(\.text) == ["ann", "nna"])
        #expect(trigrams.tokens(in: "\u{2}ann\u{3}").map(\.text) == [" an", "ann", "nn "])
        #expect(trigrams.tokens(in: "\u{2}a").map(\.text) == [" a"])
        #expect(trigrams.tokens(in: "Ø").map(\.text) == ["o"])
    }

    @Test func versionThreeDatabaseIsReindexedWithProgress() throws {
        let path = directory.file("v3.sqlite")
        let version3 = Schema.migrator.prefix(3)
        let database = try Database(path: path)
        try version3.migrate(database)
        for (first, last) in [("Søren", "Ødegaard"), ("Anna", "Straße"), ("Joanna", "Smith")] {
            try database.execute(
                sql: """
                    INSERT INTO people(first_name, last_name, created_at, updated_at)
                    VALUES (?1, ?2, '2026-01-01', '2026-01-01')
                    """, arguments: [first, last])
        }
        try database.execute(
            sql: "INSERT INTO animals(name, created_at, updated_at) VALUES ('Bjørn', '', '')")
        var reports: [ImportProgress] = []
        let index = try SearchIndex(path: path, onMigrationProgress: { reports.append($0) })
        #expect(try index.schemaVersion == Schema.migrator.latestVersion)
        #expect(reports.last?.recordsRead == 4)
        #expect(reports.last?.totalBytes == 4)
        #expect(try index.names(for: "soren odegaard") == ["Søren Ødegaard"])
        #expect(try index.names(for: "bjorn") == ["Bjørn"])
        #expect(try index.names(for: "strasse") == ["Anna Straße"])
        #expect(
            try index.search(SearchRequest(text: "nna", match: .substring)).hits.map(
                \.record.displayName
            ).sorted() == ["Anna Straße", "Joanna Smith"])
        #expect(try index.check().isEmpty)
    }
}
