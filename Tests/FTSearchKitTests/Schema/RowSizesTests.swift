import Testing
import FTSearchTestSupport
@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit
import FTSearchSQLite

/// The one-byte row sizes (``RowSizes``) stay equal to FTS5's docsize table through every kind
/// of write, `check` notices when they do not, and the fast plan that reads them ranks exactly
/// as the reference plan.
@Suite struct RowSizesTests {
    /// A company of up to 260 filler words after "Acme": columns over 127 tokens take two
    /// varint bytes in the docsize table, and their byte says 255 (one row of the first import
    /// has 16,400, three bytes).
    private static func company(
        using random: inout SeededGenerator
    ) -> String {
        let count = [0, 1, 3, 126, 127, 128, 200, 254, 260].randomElement(using: &random)!
        return (["Acme"] + Array(repeating: "filler", count: count)).joined(separator: " ")
    }

    private static let names = ["Ann", "Anna", "Bo", "Al", "Andersen", "Müller", "Smith", ""]

    /// Every index's sizes equal its docsize table, and prefix and substring searches (whose
    /// fast plans read them) rank as the reference plan.
    private static func expectExact(_ index: SearchIndex, _ context: String) throws {
        for kind in Kind.allCases {
            let sizes = try IndexSync(kind: kind, in: index.database).sizes
            #expect(sizes.count == 2, "\(context): the word and the substring index's")
            for sizes in sizes {
                #expect(try sizes.isConsistent(in: index.database), "\(context), \(sizes.table)")
            }
        }
        #expect(try index.check().isEmpty, "\(context)")
        for text in ["a", "an", "ann", "acme", "a f", "bo fil", "ille"] {
            for match in [MatchMode.prefix, .substring] {
                let request = SearchRequest(text: text, kinds: .all, limit: 20, match: match)
                let fast = try index.search(request)
                #expect(fast == (try index.referenceSearch(request)), "\(context), \(text)")
            }
        }
    }

    @Test func randomWritesAndImportsKeepTheSizesExact() throws {
        let seed = TestSettings.seed("RowSizesTests", 0)
        var random = SeededGenerator(seed: seed)
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        func person() -> (String, String, String) {
            (
                Self.names.randomElement(using: &random)!,
                Self.names.dropLast().randomElement(using: &random)!,
                Self.company(using: &random)
            )
        }
        let huge = (
            "Ann", "Huge",
            (["Acme"] + Array(repeating: "filler", count: 16_400)).joined(separator: " ")
        )
        try index.importPeople((0..<400).map { _ in person() } + [huge])
        try index.importAnimals(Self.names.filter { !$0.isEmpty })
        try index.prepareIndexes(for: SearchRequest(text: "a", kinds: .all, match: .substring))
        try Self.expectExact(index, "seed \(seed), after the first import")
        for step in 0..<TestSettings.iterations(25) {
            let ids = try index.findAll(Person.self).compactMap(\.id)
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                try index.importPeople(
                    (0..<Int.random(in: 1...50, using: &random)).map { _ in
                        person()
                    })
            case 1:
                let (first, last, company) = person()
                try index.insert(Person(firstName: first, lastName: last, company: company))
            case 2:
                let company = Self.company(using: &random)
                try index.update(Person.self, id: ids.randomElement(using: &random)!) {
                    $0.company = company
                }
            default:
                _ = try index.delete(Person.self, ids: [ids.randomElement(using: &random)!])
            }
            try Self.expectExact(index, "seed \(seed), step \(step)")
        }
    }

    @Test func checkFindsSizesOutOfStepAndRebuildMendsThem() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople([("Ann", "Smith", "Acme"), ("Anna", "Bo", "Acme filler filler")])
        #expect(try index.check().isEmpty)
        try index.database.execute(sql: "UPDATE people_fts_sizes SET sizes = zeroblob(2048)")
        #expect(
            try index.check()
                == [.rowSizesMismatch(table: "people_fts_sizes", index: "people_fts")])
        try index.rebuild()
        #expect(try index.check().isEmpty)
    }

    /// The size of row `id` that a new reader on `index`'s connection reads in a read
    /// transaction (kept blocks are used there only).
    private static func size(of id: Int64, readOn index: SearchIndex) throws -> UInt8? {
        try index.database.readingOneVersion {
            _ = try index.database.fetchInt(sql: "SELECT count(*) FROM people_fts_sizes")
            return RowBlockReader(
                database: index.database, blocks: RowSizes.words(of: .people).blocks
            )
            .byte(ofRow: id)
        }
    }

    @Test func keptBlocksGiveWayToEveryCommitOfEitherConnection() throws {
        let directory = try TemporaryDirectory()
        let writer = try SearchIndex.temporary(in: directory)
        try writer.importPeople(
            (0..<3000).map { ("Ann", "Lee \($0)", $0 % 10 == 0 ? "Acme" : "Beta") })
        let reader = try SearchIndex(path: writer.path)
        let id: Int64 = 2501  // an Acme
        #expect(try Self.size(of: id, readOn: reader) == 4)
        // Kept now, through commits that leave the word index as it was: the sizes table
        // changed alone (only the index's own writes change it) is not read again.
        try writer.database.execute(sql: "UPDATE people_fts_sizes SET sizes = zeroblob(2048)")
        #expect(try Self.size(of: id, readOn: reader) == 4)
        try writer.rebuild()
        #expect(try Self.size(of: id, readOn: reader) == 4)
        // Another connection commits.
        try writer.update(Person.self, id: id) { $0.company = "Acme Widgets Ltd" }
        #expect(try Self.size(of: id, readOn: reader) == 6)
        // This connection commits.
        try reader.update(Person.self, id: id) { $0.company = "Acme" }
        #expect(try Self.size(of: id, readOn: reader) == 4)
        // Inside a write transaction the kept blocks are not read: its change shows at once.
        try reader.database.execute(sql: "BEGIN IMMEDIATE")
        try reader.database.execute(
            sql: "UPDATE people SET company = 'Acme and Sons' WHERE id = ?1", arguments: [id])
        let pending = RowBlockReader(
            database: reader.database, blocks: RowSizes.words(of: .people).blocks)
        #expect(pending.byte(ofRow: id) == 6)
        pending.close()  // an open blob handle would keep the connection on this version
        try reader.database.execute(sql: "ROLLBACK")
        #expect(try Self.size(of: id, readOn: reader) == 4)
        // And a search on the reader after another connection's write ranks as FTS5 does.
        try writer.update(Person.self, id: id) { $0.company = "Acme Acme" }
        reader.keepsExpensiveRankings = false
        let request = SearchRequest(text: "acme", kinds: .people, limit: 5)
        #expect(try reader.search(request) == (try reader.referenceSearch(request)))
        #expect(try reader.search(request).hits.first?.record.id == id)
    }

    @Test func aSubstringIndexBuiltWithoutSizesIsBuiltAgainWithThem() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople([
            ("Ann", "Smith", "Acme"), ("Hannah", "Jones", "Annex Ltd"), ("Bo", "Lee", "Nanna & Co"),
        ])
        let request = SearchRequest(text: "an", kinds: .people, limit: 20, match: .substring)
        let expected = try index.referenceSearch(request)
        #expect(try index.search(request) == expected)  // builds the index, with its sizes
        // As an earlier ftsearch built it: without its sizes table, nor triggers writing it.
        let sizes = RowSizes(of: .substrings(of: .people), kind: .people)
        try index.database.execute(sql: sizes.blocks.dropTableSQL)
        let sync = try IndexSync(kind: .people, in: index.database)
        try index.database.execute(sql: sync.dropTriggersSQL + sync.createTriggersSQL)
        #expect(sync.sizes.map(\.table) == ["people_fts_sizes"])
        // Opened for reading, it is searched as it is, its sizes read from FTS5's docsize.
        let reader = try SearchIndex(path: index.path, mode: .readOnly)
        #expect(try reader.search(request) == expected)
        #expect(try reader.check().isEmpty)
        // The next substring search that may write builds it again, with them.
        #expect(try index.search(request) == expected)
        #expect(
            try IndexSync(kind: .people, in: index.database).sizes.map(\.table)
                == ["people_fts_sizes", "people_substring_sizes"])
        #expect(try sizes.isConsistent(in: index.database))
        #expect(try index.check().isEmpty)
    }

    @Test func migrationTenFillsTheSizesOfStoredRows() throws {
        let database = try Database(path: ":memory:")
        try database.registerSearchExtensions()
        try Schema.migrator.prefix(9).migrate(database)
        let companies = ["", "Acme", "a b c", String(repeating: "w ", count: 130)]
        for (offset, company) in companies.enumerated() {
            try database.execute(
                sql: """
                    INSERT INTO people(id, first_name, last_name, company, created_at, updated_at)
                    VALUES (?1, 'Ann', 'Lee', ?2, 0, 0)
                    """, arguments: [Int64(offset * 1000 - 1500), company])
        }
        try Schema.migrator.migrate(database)
        #expect(try RowSizes.words(of: .people).isConsistent(in: database))
        let reader = RowBlockReader(database: database, blocks: RowSizes.words(of: .people).blocks)
        #expect(
            companies.indices.map { reader.byte(ofRow: Int64($0 * 1000 - 1500)) } == [2, 3, 5, 255])
    }
}
