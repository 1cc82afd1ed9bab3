import Testing
import FTSearchTestSupport
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct SearchHistoryTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// An index whose clock reads `now`.
    private func index(at now: String) throws -> SearchIndex {
        try SearchIndex.temporary(in: directory, now: now)
    }

    @Test(arguments: [
        ("  Zoë   O'Brien ", "zoe o'brien"),
        ("ANN\tMÜLLER", "ann muller"),
        ("ann*  -smith", "ann* -smith"),
        ("Łukasz", "lukasz"),
    ])
    func keysFoldCaseDiacriticsAndWhiteSpace(text: String, key: String) throws {
        let tokenizer = try index(at: "2026-01-01T00:00:00Z").tokenizer
        #expect(HistoryKey.normalize(text, tokenizer: tokenizer) == key)
    }

    @Test func searchesWithTheSameKeyAreOneEntry() throws {
        try index(at: "2026-01-01T10:00:00Z").history.record("Zoë", kinds: .all, resultCount: 2)
        try index(at: "2026-01-01T11:00:00Z").history.record(
            "  ZOE ", kinds: .people, resultCount: 1)
        try index(at: "2026-01-01T12:00:00Z").history.record("zoe", kinds: .people, resultCount: 3)
        let entries = try index(at: "2026-01-01T12:00:00Z").history.entries()
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry.text == "zoe")
        #expect(entry.key == "zoe")
        #expect(entry.useCount == 3)
        #expect(entry.resultCount == 3)
        #expect(entry.kinds == .people)
        #expect(entry.firstUsed.description == "2026-01-01T10:00:00.000Z")
        #expect(entry.lastUsed.description == "2026-01-01T12:00:00.000Z")
    }

    @Test func blankSearchesAreNotRecorded() throws {
        let history = try index(at: "2026-01-01T00:00:00Z").history
        try history.record("   ", kinds: .all, resultCount: 0)
        #expect(try history.count() == 0)
    }

    @Test func entriesAreListedNewestFirst() throws {
        try index(at: "2026-01-01T10:00:00Z").history.record("old", kinds: .all, resultCount: 1)
        try index(at: "2026-01-02T10:00:00Z").history.record("new", kinds: .all, resultCount: 1)
        try index(at: "2026-01-03T10:00:00Z").history.record("OLD", kinds: .all, resultCount: 1)
        let history = try index(at: "2026-01-04T00:00:00Z").history
        #expect(try history.entries().map(\.text) == ["OLD", "new"])
        #expect(try history.entries(limit: 1).map(\.text) == ["OLD"])
    }

    @Test func deletingByIDIsAllOrNothing() throws {
        let history = try index(at: "2026-01-01T00:00:00Z").history
        try history.record("a", kinds: .all, resultCount: 1)
        try history.record("b", kinds: .all, resultCount: 1)
        let ids = try history.entries().map(\.id)
        let error = try #require(throws: HistoryEntryNotFound.self) {
            try history.delete(ids: [ids[0], 999])
        }
        #expect(error.description == "no history entry with id 999")
        #expect(try history.count() == 2)
        try history.delete(ids: [ids[0]])
        #expect(try history.entries().map(\.id) == [ids[1]])
    }

    @Test func deletingByTextMatchesTheNormalizedKey() throws {
        let history = try index(at: "2026-01-01T00:00:00Z").history
        try history.record("Anna Müller", kinds: .all, resultCount: 1)
        try history.delete(matching: " anna  MULLER")
        #expect(try history.count() == 0)
        #expect(throws: HistoryEntryNotFound.self) { try history.delete(matching: "anna") }
    }

    @Test func clearingRemovesEverythingOrWhatIsOlder() throws {
        try index(at: "2026-01-01T00:00:00Z").history.record("a", kinds: .all, resultCount: 1)
        try index(at: "2026-02-01T00:00:00Z").history.record("b", kinds: .all, resultCount: 1)
        let history = try index(at: "2026-03-01T00:00:00Z").history
        #expect(try history.clear(before: Timestamp(iso8601: "2026-01-15")) == 1)
        #expect(try history.entries().map(\.text) == ["b"])
        #expect(try history.clear() == 1)
        #expect(try history.count() == 0)
    }
}

@Suite struct SuggesterTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private func index(at now: String) throws -> SearchIndex {
        try SearchIndex.temporary(in: directory, now: now)
    }

    /// Records `text` `times` times at `now`.
    private func search(
        _ text: String, times: Int = 1, at now: String, results: Int = 1,
        kinds: Set<Kind> = .all
    ) throws {
        let history = try index(at: now).history
        for _ in 0..<times { try history.record(text, kinds: kinds, resultCount: results) }
    }

    private func texts(
        _ prefix: String, _ options: SuggestionOptions = SuggestionOptions(sources: [.history]),
        at now: String = "2026-01-10T12:00:00Z"
    ) throws -> [String] {
        try index(at: now).suggestions(forPrefix: prefix, options: options).map(\.text)
    }

    @Test func frequencyOrdersByCountThenLastUseThenText() throws {
        try search("anna", times: 3, at: "2026-01-01T00:00:00Z")
        try search("annex", times: 5, at: "2026-01-02T00:00:00Z")
        try search("annie", times: 3, at: "2026-01-03T00:00:00Z")
        try search("andy", times: 3, at: "2026-01-03T00:00:00Z")
        #expect(try texts("an") == ["annex", "andy", "annie", "anna"])
    }

    @Test func recencyOrdersByLastUse() throws {
        try search("anna", times: 9, at: "2026-01-01T00:00:00Z")
        try search("annex", at: "2026-01-05T00:00:00Z")
        try search("annie", at: "2026-01-03T00:00:00Z")
        #expect(
            try texts("ann", SuggestionOptions(order: .recency, sources: [.history])) == [
                "annex", "annie", "anna",
            ])
    }

    @Test func frecencyWeighsCountByAge() throws {
        // now = 2026-01-10T12:00Z. anna: 10 uses, 30 days old (×¼ = 2.5); annex: 2 uses, 30 minutes
        // old (×4 = 8); annie: 3 uses, 3 hours old (×2 = 6); anton: 6 uses, 3 days old (×½ = 3).
        try search("anna", times: 10, at: "2025-12-11T12:00:00Z")
        try search("annex", times: 2, at: "2026-01-10T11:30:00Z")
        try search("annie", times: 3, at: "2026-01-10T09:00:00Z")
        try search("anton", times: 6, at: "2026-01-07T12:00:00Z")
        #expect(
            try texts("an", SuggestionOptions(order: .frecency, sources: [.history]))
                == ["annex", "annie", "anton", "anna"])
    }

    @Test func startOfKeyComesBeforeLaterWords() throws {
        try search("anna müller", times: 1, at: "2026-01-01T00:00:00Z")
        try search("müller", times: 1, at: "2026-01-01T00:00:00Z")
        try search("hans mustermann", times: 5, at: "2026-01-01T00:00:00Z")
        #expect(try texts("mül") == ["müller", "anna müller"])
        #expect(try texts("MU") == ["müller", "hans mustermann", "anna müller"])
    }

    @Test func searchesThatFoundNothingAreSkippedUnlessAsked() throws {
        try search("annna", times: 5, at: "2026-01-01T00:00:00Z", results: 0)
        try search("anna", at: "2026-01-01T00:00:00Z")
        #expect(try texts("ann") == ["anna"])
        #expect(
            try texts("ann", SuggestionOptions(sources: [.history], includesEmptyResults: true))
                == [
                    "annna", "anna",
                ])
    }

    @Test func emptyPrefixGivesTheTopOfHistory() throws {
        try search("b", times: 2, at: "2026-01-01T00:00:00Z")
        try search("a", times: 1, at: "2026-01-01T00:00:00Z")
        try search("c", times: 3, at: "2026-01-01T00:00:00Z")
        #expect(try texts("", SuggestionOptions(limit: 2, sources: [.history])) == ["c", "b"])
    }

    @Test func kindFilterKeepsSearchesOfThatKindOrOfAll() throws {
        try search("anna", at: "2026-01-01T00:00:00Z", kinds: .people)
        try search("annie", at: "2026-01-01T00:00:00Z", kinds: .animals)
        try search("anne", at: "2026-01-01T00:00:00Z", kinds: .all)
        #expect(
            Set(try texts("ann", SuggestionOptions(kinds: .animals, sources: [.history]))) == [
                "annie", "anne",
            ])
    }

    @Test func indexWordsFillUpShortHistory() throws {
        let index = try index(at: "2026-01-10T00:00:00Z")
        try index.importPeople([
            ("Anna", "Müller", "Annex"), ("Anna", "Berg", "Annex"), ("Annika", "Lund", "Ikea"),
        ])
        try index.importAnimals(["Annie"])
        try search("annika lund", at: "2026-01-01T00:00:00Z")
        let all = try index.suggestions(forPrefix: "ann", options: SuggestionOptions(limit: 4))
        #expect(all.map(\.text) == ["annika lund", "Anna", "Annex", "Annie"])
        #expect(all.map(\.source) == [.history, .index, .index, .index])
        #expect(all[1].count == 2)
        let onlyIndex = try index.suggestions(
            forPrefix: "anna m", options: SuggestionOptions(sources: [.index]))
        #expect(onlyIndex.map(\.text) == ["anna Müller"])
        let animals = try index.suggestions(
            forPrefix: "ann", options: SuggestionOptions(kinds: .animals, sources: [.index]))
        #expect(animals.map(\.text) == ["Annie"])
    }

    @Test func indexWordsAlreadySuggestedByHistoryAreNotRepeated() throws {
        let index = try index(at: "2026-01-10T00:00:00Z")
        try index.importPeople([("Anna", "Müller", "Annex")])
        try search("Anna", at: "2026-01-01T00:00:00Z")
        #expect(try index.suggestions(forPrefix: "an").map(\.text) == ["Anna", "Annex"])
    }

    /// Words filled in from the index are spelled as the records write them, not as the
    /// index folds them (`νικοσ`, `андреи`, `cetin`), the spelling most records use first;
    /// the words typed before stay as typed.
    @Test(arguments: [
        ("νικ", ["Νίκος"]), ("ΝΙΚ", ["Νίκος"]), ("андр", ["Андрей"]), ("cet", ["Çetin"]),
        ("mul", ["Müller"]), ("o'b", ["o'Brien"]), ("Andrej  çet", ["Andrej  Çetin"]),
        ("stra", ["Straße"]), ("刘", ["刘"]),
    ])
    func indexWordsAreSpelledAsTheRecordsWriteThem(prefix: String, expected: [String]) throws {
        let index = try index(at: "2026-01-10T00:00:00Z")
        try index.importPeople([
            ("Νίκος", "Παπάς", ""), ("Андрей", "Ёлкин", ""), ("Ali", "Çetin", ""),
            ("Anna", "MÜLLER", ""), ("Jan", "Müller", ""), ("Eva", "Müller", ""),
            ("Seán", "O'Brien", ""), ("Max", "Mustermann", "Hauptstraße"),
            ("Ida", "Straße", ""), ("晓明", "刘", ""),
        ])
        let words = try index.suggestions(
            forPrefix: prefix, options: SuggestionOptions(limit: 1, sources: [.index]))
        #expect(words.map(\.text) == expected)
    }

    /// Of the spellings that fold alike, the one most of the first 32 records holding the word
    /// (by id, people before animals) use wins, each record counting once for each spelling it
    /// has, the first met on a tie; a spelling leading early is overtaken by the records after
    /// it, and records past the first 32 do not count.
    @Test(
        arguments: [
            // Fifteen records lead with ANNA, the seventeen after them write Anna.
            (Array(repeating: "ANNA", count: 15) + Array(repeating: "Anna", count: 17), [], "Anna"),
            // ANNA leads Anna by as many as are left to read, and Anna, met first, draws level.
            (
                ["Anna"] + Array(repeating: "ANNA", count: 16)
                    + Array(repeating: "Anna", count: 15),
                [], "Anna"
            ),
            // 16 to 16 among the first 32 (ANNA met first); the ten after them do not count.
            (
                Array(repeating: "ANNA", count: 16) + Array(repeating: "Anna", count: 26), [],
                "ANNA"
            ),
            // One record writing ANNA three times counts once.
            (["ANNA ANNA ANNA", "Anna", "Anna"], [], "Anna"),
            // The animals holding the word count with the people.
            (["Anna", "ANNA"], ["ANNA", "ANNA"], "ANNA"),
            (["ANNA", "anna", "Anna", "anna"], [], "anna"),
        ] as [([String], [String], String)])
    func theSpellingMostRecordsUseIsShown(
        people: [String], animals: [String], expected: String
    ) throws {
        let index = try index(at: "2026-01-10T00:00:00Z")
        try index.importPeople(people.map { ($0, "Berg", "") })
        if !animals.isEmpty { try index.importAnimals(animals) }
        let words = try index.suggestions(
            forPrefix: "ann", options: SuggestionOptions(limit: 1, sources: [.index]))
        #expect(words.map(\.text) == [expected])
        #expect(words.first?.count == people.count + animals.count)
    }
}

/// The history lives in its own file, `<database>-history`, which no change to the records
/// locks; migration 9 moved the entries of older databases there.
@Suite struct HistoryFileTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    @Test func upgradeMovesEveryEntryWithItsIdCountAndTimes() throws {
        let path = directory.file("old.sqlite")
        do {
            let database = try Database(path: path)
            try database.registerSearchExtensions()
            try database.execute(sql: "PRAGMA journal_mode = WAL")
            try Schema.migrator.prefix(7).migrate(database)
            try database.execute(
                sql: """
                    INSERT INTO history(id, key, text, kind, result_count, use_count, first_used, last_used)
                    VALUES (3, 'ann', 'Ann', 'all', 10, 7, '2025-01-01T00:00:00Z', '2025-06-01T00:00:00Z'),
                           (9, 'zoe', 'Zoë', 'people', 0, 1, '2025-02-01T00:00:00Z', '2025-02-01T00:00:00Z')
                    """)
        }
        let index = try SearchIndex(path: path)
        #expect(try index.schemaVersion == Schema.migrator.latestVersion)
        let entries = try index.history.entries()
        #expect(entries.map(\.id) == [3, 9])
        #expect(entries.map(\.useCount) == [7, 1])
        #expect(entries.map(\.text) == ["Ann", "Zoë"])
        #expect(entries.first?.lastUsed == Timestamp(iso8601: "2025-06-01T00:00:00Z"))
        #expect(
            try index.database.fetchInt(
                sql: "SELECT count(*) FROM sqlite_schema WHERE name = 'history'") == 0)
        #expect(access(HistoryFile.path(forDatabaseAt: path), F_OK) == 0)
        try index.history.record("ann", kinds: .all, resultCount: 4)
        #expect(try index.history.entries().first { $0.id == 3 }?.useCount == 8)
    }

    /// A copy committed in the history file by a migration that then crashed is not made twice
    /// when the migration runs again.
    @Test func upgradeRunAgainAfterACrashCopiesNothingTwice() throws {
        let path = directory.file("old.sqlite")
        do {
            let database = try Database(path: path)
            try database.registerSearchExtensions()
            try Schema.migrator.prefix(7).migrate(database)
            try database.execute(
                sql: """
                    INSERT INTO history(id, key, text, kind, result_count, use_count, first_used, last_used)
                    VALUES (1, 'ann', 'Ann', 'all', 10, 7, '2025-01-01T00:00:00Z', '2025-06-01T00:00:00Z')
                    """)
            // What the interrupted migration had committed in the history file.
            let history = try Database(path: HistoryFile.path(forDatabaseAt: path))
            try Schema.historyMigrator.migrate(history)
            try history.execute(
                sql: """
                    INSERT INTO history(id, key, text, kind, result_count, use_count, first_used, last_used)
                    VALUES (1, 'ann', 'Ann', 'all', 10, 7, '2025-01-01T00:00:00Z', '2025-06-01T00:00:00Z')
                    """)
        }
        let entries = try SearchIndex(path: path).history.entries()
        #expect(entries.map(\.useCount) == [7])
    }

    /// Recording a search waits for no change to the records: with another connection holding
    /// the database's write lock (as an import does for as long as it runs), the entry is
    /// recorded at once.
    @Test func recordingDoesNotWaitForAWriterOfTheRecords() throws {
        let path = directory.file("test.sqlite")
        let index = try SearchIndex(path: path, lockWaiting: .failAtOnce)
        let writer = try Database(path: path)
        try writer.execute(sql: "BEGIN IMMEDIATE")
        let start = ContinuousClock.now
        try index.history.record("ann", kinds: .all, resultCount: 1)
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(try index.history.count() == 1)
        #expect(throws: DatabaseBusyError.self) {
            try index.insert(Person(firstName: "Ann", lastName: "Lee", company: ""))
        }
        try writer.execute(sql: "ROLLBACK")
    }
}
