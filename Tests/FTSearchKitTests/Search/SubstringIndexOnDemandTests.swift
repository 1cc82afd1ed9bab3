@testable import FTSearchFormats
import Testing
import FTSearchTestSupport

@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

/// The substring index exists only once a substring search needs it: imports do not build it,
/// the first substring search of a kind does (once, with progress), every later change keeps it
/// exact, and the substring indexes that schemas 4 and 5 built at import are dropped by the
/// upgrade.
@Suite struct SubstringIndexOnDemandTests {
    let directory: TemporaryDirectory
    let index: SearchIndex

    static let people = [
        ("Joanna", "Hannah", "Nanna Ltd"), ("Ann", "Smith", "Annex"), ("Søren", "Straße", ""),
        ("Bob", "Jones", "Acme"), ("Łukasz", "Müller", "Müller-Lüdenscheid GmbH"),
    ]

    init() throws {
        directory = try TemporaryDirectory()
        index = try SearchIndex.temporary(in: directory)
        try index.importPeople(Self.people)
        try index.importAnimals(["Annie", "Bjørn", "Rex"])
    }

    /// The names of the database's tables and the SQL of its triggers.
    private func schema(of database: Database) throws -> (tables: [String], triggers: String) {
        var tables: [String] = []
        var triggers = ""
        try database.makeStatement(sql: "SELECT type, name, sql FROM sqlite_schema ORDER BY name")
            .forEachRow { row in
                if row.text(at: 0) == "table" { tables.append(row.text(at: 1) ?? "") }
                if row.text(at: 0) == "trigger" { triggers += row.text(at: 2) ?? "" }
            }
        return (tables, triggers)
    }

    /// Kinds whose substring index exists, as the schema and ``IndexStatistics`` tell.
    private func kindsWithASubstringIndex() throws -> Set<Kind> {
        let (tables, triggers) = try schema(of: index.database)
        let built = Set(Kind.allCases.filter { tables.contains("\($0.rawValue)_substring") })
        #expect(
            Set(Kind.allCases.filter { triggers.contains("\($0.rawValue)_substring") }) == built)
        #expect(Set(try index.statistics().substringIndexSizes.keys) == built)
        return built
    }

    /// What a naive filter finds for substring `text`: every token inside some folded word.
    private func naiveSubstringMatches(_ text: String, kinds: Set<Kind>) throws -> Set<String> {
        let tokenizer = try index.tokenizer
        let tokens = tokenizer.tokens(in: text).map(\.text)
        let everything = try index.search(SearchRequest(text: "", kinds: kinds, limit: nil))
        return Set(
            everything.hits.filter { hit in
                let words = hit.record.record.searchableValues.flatMap { tokenizer.tokens(in: $0) }
                return tokens.allSatisfy { token in words.contains { $0.text.contains(token) } }
            }.map(\.record.displayName))
    }

    private func expectSubstringSearchesMatchTheNaiveFilter() throws {
        try expectSubstringSearchesMatchTheNaiveFilter(searching: index)
        #expect(try index.check().isEmpty)
    }

    /// Substring searches of 1 to 4 letters, through `searched`, against the naive filter.
    private func expectSubstringSearchesMatchTheNaiveFilter(searching searched: SearchIndex)
        throws
    {
        for text in ["nn", "ann", "NNA", "ull", "ss", "oren", "jo", "x", "ønes", "e", "zzz"] {
            let found = try searched.search(
                SearchRequest(text: text, kinds: .all, limit: nil, match: .substring))
            #expect(
                Set(found.hits.map(\.record.displayName))
                    == (try naiveSubstringMatches(text, kinds: .all)), "\(text)")
            #expect(found.total == found.hits.count, "\(text)")
        }
    }

    /// The `CREATE VIRTUAL TABLE` statements of the substring indexes, by kind.
    private func substringIndexDefinitions() throws -> [Kind: String] {
        let statement = try index.database.makeStatement(
            sql: "SELECT sql FROM sqlite_schema WHERE name = ?1")
        var definitions: [Kind: String] = [:]
        for kind in Kind.allCases {
            definitions[kind] =
                try statement.firstRow([kind.substringIndexName]) {
                    $0.text(at: 0)
                } ?? nil
        }
        return definitions
    }

    /// Imports records of the first field's kind (a `name` is an animal), as one import.
    private func importRecords(_ records: [[(String, JSONValue)]], replacing: Bool = false)
        throws
    {
        try index.importRecords(
            from: [ImportSource(name: "input.json", reader: RecordList(fields: records))],
            options: ImportOptions(replace: replacing))
    }

    @Test func anImportBuildsNoSubstringIndex() throws {
        #expect(try kindsWithASubstringIndex().isEmpty)
        // Searches in the other modes never build it.
        for match in [MatchMode.prefix, .exact, .fuzzy] {
            _ = try index.search(SearchRequest(text: "ann", match: match))
        }
        #expect(try kindsWithASubstringIndex().isEmpty)
    }

    @Test func listingEverythingInSubstringModeBuildsNothing() throws {
        let everything = try index.search(SearchRequest(text: "  ", limit: nil, match: .substring))
        #expect(everything.total == Self.people.count + 3)
        var reports: [IndexBuildProgress] = []
        try index.prepareIndexes(for: SearchRequest(text: "", match: .substring)) {
            reports.append($0)
        }
        #expect(reports.isEmpty)
        #expect(try kindsWithASubstringIndex().isEmpty)
    }

    @Test func theFirstSubstringSearchOfAKindBuildsItsIndexOnceWithProgress() throws {
        var reports: [IndexBuildProgress] = []
        try index.prepareIndexes(for: .substring, of: .people) { reports.append($0) }
        #expect(
            reports.first
                == IndexBuildProgress(
                    index: "substring index", recordCounts: [.people: 5], recordsDone: 0))
        #expect(reports.last?.recordsDone == 5)
        #expect(try kindsWithASubstringIndex() == [.people])
        reports = []
        try index.prepareIndexes(for: .substring, of: .people) { reports.append($0) }
        _ = try index.search(SearchRequest(text: "nn", kinds: .people, match: .substring))
        #expect(reports.isEmpty)
        #expect(try kindsWithASubstringIndex() == [.people])
        _ = try index.search(SearchRequest(text: "nn", kinds: .all, match: .substring))
        #expect(try kindsWithASubstringIndex() == [.people, .animals])
        try expectSubstringSearchesMatchTheNaiveFilter()
    }

    @Test func onceBuiltEveryChangeKeepsItExact() throws {
        try expectSubstringSearchesMatchTheNaiveFilter()  // the first search builds it
        #expect(try kindsWithASubstringIndex() == [.people, .animals])
        let added = try index.insert(Person(firstName: "Quinn", lastName: "Annan", company: ""))
        try expectSubstringSearchesMatchTheNaiveFilter()
        try index.update(Person.self, id: try #require(added.id)) { $0.lastName = "Nullsson" }
        try expectSubstringSearchesMatchTheNaiveFilter()
        try index.delete(Person.self, ids: [1])
        try expectSubstringSearchesMatchTheNaiveFilter()
        try index.importPeople([("Hanna", "Sørensen", "Onnes")])
        try expectSubstringSearchesMatchTheNaiveFilter()
        try importRecords([[("id", .number("2")), ("first_name", .string("Xenia"))]])
        try expectSubstringSearchesMatchTheNaiveFilter()
        try importRecords([[("name", .string("Nanny"))]], replacing: true)
        try expectSubstringSearchesMatchTheNaiveFilter()
        try index.rebuild()
        try index.optimize()
        try expectSubstringSearchesMatchTheNaiveFilter()
        #expect(try kindsWithASubstringIndex() == [.people, .animals])
    }

    /// A substring index an older ftsearch built, without the 1- and 2-letter prefix indexes,
    /// finds what the naive filter finds, also through a process that cannot write; the first
    /// substring search of one that can builds it again with today's options, and every change
    /// keeps that one exact.
    @Test func aSubstringIndexWithOlderOptionsIsBuiltAgainByTheFirstWriter() throws {
        let older = Kind.allCases.map { kind in
            IndexBuilder.Target(
                kind: kind,
                index: FullTextIndex(
                    name: kind.substringIndexName,
                    options: "tokenize='\(FoldingTokenizer.trigramName)'",
                    description: "substring index"))
        }
        try index.database.inTransaction(.immediate) {
            try IndexBuilder(database: index.database).build(older) { _ in }
        }
        #expect(try substringIndexDefinitions().count == 2)
        #expect(try substringIndexDefinitions().values.allSatisfy { !$0.contains("prefix=") })

        let reader = try SearchIndex(path: index.path, mode: .readOnly)
        try reader.prepareIndexes(for: .substring, of: .all)
        try expectSubstringSearchesMatchTheNaiveFilter(searching: reader)
        #expect(try substringIndexDefinitions().values.allSatisfy { !$0.contains("prefix=") })

        try index.database.execute(
            sql: """
                INSERT INTO result_cache(key, structure, total, entries)
                VALUES ('a kept substring ranking', x'00', 0, x'')
                """)
        var reports: [IndexBuildProgress] = []
        try index.prepareIndexes(for: .substring, of: .all) { reports.append($0) }
        #expect(reports.last?.recordsDone == 8)
        let today = FullTextIndex.substrings(of: .people).options
        #expect(today.contains("prefix='1 2'"))
        #expect(try substringIndexDefinitions().values.allSatisfy { $0.contains(today) })
        #expect(try index.database.fetchInt(sql: "SELECT count(*) FROM result_cache") == 0)
        reports = []
        try index.prepareIndexes(for: .substring, of: .all) { reports.append($0) }
        #expect(reports.isEmpty)
        try expectSubstringSearchesMatchTheNaiveFilter()
        try expectSubstringSearchesMatchTheNaiveFilter(searching: reader)
        try index.update(Person.self, id: 2) { $0.lastName = "Nullsson" }
        try index.delete(Person.self, ids: [1])
        try expectSubstringSearchesMatchTheNaiveFilter()
        #expect(try kindsWithASubstringIndex() == [.people, .animals])
    }

    /// A database as schemas 4 and 5 left it (both indexes, triggers keeping both) is upgraded to
    /// word indexes only; its first substring search builds the index again.
    @Test func upgradingASchemaFiveDatabaseDropsItsSubstringIndexes() throws {
        let path = directory.file("v5.sqlite")
        let version5 = Schema.migrator.prefix(5)
        do {
            let database = try Database(path: path)
            try database.registerSearchExtensions()
            try version5.migrate(database)
            for (first, last, company) in Self.people {
                try database.execute(
                    sql: """
                        INSERT INTO people(first_name, last_name, company, created_at, updated_at)
                        VALUES (?1, ?2, ?3, '2026-01-01', '2026-01-01')
                        """, arguments: [first, last, company])
            }
            for kind in Kind.allCases {
                let words = IndexSync(kind: kind, indexes: [.words(of: kind)])
                let substrings = IndexSync(kind: kind, indexes: [.substrings(of: kind)])
                let both = IndexSync(kind: kind, indexes: FullTextIndex.all(of: kind))
                // Schema 5 kept no row sizes of a substring index.
                let sizes = RowSizes(of: .substrings(of: kind), kind: kind)
                try database.execute(
                    sql: words.dropTriggersSQL + substrings.createIndexesSQL
                        + sizes.blocks.dropTableSQL
                        + both.createTriggersSQL + substrings.rebuildSQL)
            }
            try database.execute(
                sql: """
                    INSERT INTO result_cache(key, structure, total, entries)
                    VALUES ('a kept substring ranking', x'00', 0, x'')
                    """)
            #expect(try schema(of: database).tables.contains("people_substring"))
        }
        let upgraded = try SearchIndex(path: path)
        #expect(try upgraded.schemaVersion == Schema.migrator.latestVersion)
        let (tables, triggers) = try schema(of: upgraded.database)
        #expect(!tables.contains { $0.contains("_substring") })
        #expect(!triggers.contains("_substring") && triggers.contains("people_fts"))
        #expect(try upgraded.database.fetchInt(sql: "PRAGMA freelist_count") ?? 0 > 0)
        #expect(try upgraded.database.fetchInt(sql: "SELECT count(*) FROM result_cache") == 0)
        #expect(try upgraded.check().isEmpty)
        #expect(
            Set(
                try upgraded.search(SearchRequest(text: "nna", match: .substring)).hits.map(
                    \.record.displayName)) == ["Joanna Hannah"])
        #expect(Set(try upgraded.statistics().substringIndexSizes.keys) == [.people, .animals])
        #expect(try upgraded.check().isEmpty)
    }
}
