import FTSearchSQLite
import FTSearchTestSupport
import Synchronization
import Glibc
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit

/// Many searches at once beside a writer, in one process: every answer must be exactly what the
/// reference plan gives on the same snapshot of the database, and no search may wait for the
/// writer.
@Suite struct SearchIndexPoolTests {
    static let firstNames = ["Ann", "Anna", "Annabelle", "Zoë", "Søren", "Bob", "Bo", "Al", "Åsa"]
    static let lastNames = ["Andersen", "Müller", "O'Brien", "Smith", "Lee", "Ødegaard", "Ann"]
    static let companies = ["Acme", "Annex Ltd", "AT&T", "Müller-Lüdenscheid GmbH", ""]
    static let queries = ["a", "an", "ann", "mü", "s", "smith", "bo", "zoe", "ann sm", "ø", ""]

    let directory: TemporaryDirectory
    let pool: SearchIndexPool

    init() throws {
        directory = try TemporaryDirectory()
        pool = try SearchIndexPool(path: directory.file("pool.sqlite"), maximumReaders: 4)
    }

    static func person(using random: inout SeededGenerator) -> Person {
        Person(
            firstName: firstNames.randomElement(using: &random)!,
            lastName: lastNames.randomElement(using: &random)!,
            company: companies.randomElement(using: &random)!)
    }

    @Test func theShortPrefixesAreEveryFirstLetterThenTheCommonestTwo() async throws {
        _ = try await pool.write {
            try $0.insert([
                Person(firstName: "Ann", lastName: "Ødegaard", company: "Acme"),
                Person(firstName: "Anna", lastName: "Smith", company: "Annex Ltd"),
                Person(firstName: "Åsa", lastName: "Smith", company: "42 Ltd"),
            ])
        }
        let prefixes = try await pool.read { try $0.shortPrefixes(of: .all) }
        // Folded as the index folds (Å and Ø as a and o), digits left out.
        #expect(prefixes == ["a", "l", "s", "o", "an", "lt", "sm", "ac", "as", "od"])
        let searched = try await pool.keepShortPrefixRankings(kinds: .people)
        #expect(searched == prefixes.count)
        let cancelled = Task { [pool] in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.keepShortPrefixRankings()
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
    }

    @Test func concurrentSearchesBesideAWriterEqualTheReferencePlan() async throws {
        var random = SeededGenerator(seed: TestSettings.seed)
        let initial = (0..<1500).map { _ in Self.person(using: &random) }
        _ = try await pool.write { try $0.insert(initial) }

        let writes = TestSettings.iterations(150)
        let writer = Task { [pool] in
            var random = SeededGenerator(seed: TestSettings.seed ^ 1)
            var deleted = 0
            for step in 0..<writes {
                let person = Self.person(using: &random)
                let id = Int64.random(in: 1...1500, using: &random)
                deleted += try await pool.write { index in
                    switch step % 3 {
                    case 0:
                        _ = try index.insert(person)
                    case _ where try index.find(Person.self, id: id) == nil:
                        break  // deleted by an earlier step
                    case 1:
                        try index.update(Person.self, id: id) { $0.company = person.company }
                    default:
                        return try index.delete(Person.self, ids: [id])
                    }
                    return 0
                }
            }
            return deleted
        }
        let mismatches = try await withThrowingTaskGroup(of: [String].self) { group in
            for reader in 0..<8 {
                group.addTask { [pool] in
                    var mismatches: [String] = []
                    for round in 0..<TestSettings.iterations(25) {
                        let text = Self.queries[(reader * 7 + round) % Self.queries.count]
                        let request = SearchRequest(text: text, kinds: .all, limit: 20)
                        let (fast, reference) = try await pool.read { index in
                            // One read transaction: both plans see the same snapshot.
                            try index.database.inTransaction(.deferred) {
                                (try index.search(request), try index.referenceSearch(request))
                            }
                        }
                        if fast != reference { mismatches.append(text) }
                    }
                    return mismatches
                }
            }
            return try await group.reduce([], +)
        }
        let deleted = try await writer.value
        #expect(mismatches == [])
        #expect(deleted > 0)
        let total = try await pool.search(SearchRequest(text: "", kinds: .people)).total
        #expect(total == 1500 + writes / 3 - deleted)
    }

    @Test func readersRefuseChangesAndWriterChangesAreSeenByTheNextRead() async throws {
        let added = try await pool.write {
            try $0.insert(Person(firstName: "Ada", lastName: "Lovelace", company: "Engines"))
        }
        let found = try await pool.search(SearchRequest(text: "lovel"))
        #expect(found.hits.map(\.record.id) == [added.id])
        await #expect(throws: ReadOnlyDatabaseError.self) {
            _ = try await pool.read { try $0.insert(Person(firstName: "Eve")) }
        }
    }

    @Test func aSearchDoesNotWaitForALongWrite() async throws {
        _ = try await pool.write {
            try $0.insert((0..<200).map { Person(firstName: "Ann\($0)", lastName: "Lee") })
        }
        let writing = Mutex(false)
        let release = Mutex(false)
        let longWrite = Task { [pool] in
            try await pool.write { index in
                try index.database.inTransaction(.immediate) {
                    try index.database.execute(sql: "UPDATE people SET company = 'Busy'")
                    writing.withLock { $0 = true }
                    while !release.withLock({ $0 }) { usleep(1000) }
                }
            }
        }
        while !writing.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
        let clock = ContinuousClock()
        let started = clock.now
        let results = try await pool.search(SearchRequest(text: "ann", kinds: .people))
        let elapsed = clock.now - started
        release.withLock { $0 = true }
        try await longWrite.value
        #expect(results.total == 200)
        #expect(results.hits.allSatisfy { $0.record[field: "company"] != "Busy" })
        // The write lock was held the whole time: a search that waited would never have
        // returned before `release`.
        #expect(elapsed < .seconds(5))
    }

    @Test func cancellingTheTaskStopsTheSearch() async throws {
        _ = try await pool.write {
            try $0.insert((0..<3000).map { Person(firstName: "Ann\($0)", lastName: "Lee\($0)") })
        }
        let search = Task { [pool] in
            try await pool.search(SearchRequest(text: "a", kinds: .people, limit: 0))
        }
        search.cancel()
        await #expect(throws: CancellationError.self) { _ = try await search.value }
        // The pool still serves searches afterwards.
        #expect(try await pool.search(SearchRequest(text: "ann1", kinds: .people)).total > 0)
    }

    @Test(arguments: [false, true])
    func memoryLimitsHoldOnEveryConnection(readOnly: Bool) async throws {
        _ = try await pool.write { try $0.insert(Person(firstName: "Ann")) }
        let limits = ConnectionMemoryLimits(mappedBytes: 0, pageCacheBytes: 8 << 20)
        let limited = try SearchIndexPool(
            path: pool.path, readOnly: readOnly, memoryLimits: limits)
        let settings: @Sendable (SearchIndex) throws -> [Int?] = { index in
            [
                try index.database.fetchInt(sql: "PRAGMA mmap_size"),
                try index.database.fetchInt(sql: "PRAGMA cache_size"),
            ]
        }
        #expect(try await limited.read(settings) == [0, -8192])
        if !readOnly { #expect(try await limited.write(settings) == [0, -8192]) }
        #expect(try await limited.search(SearchRequest(text: "ann")).total == 1)
        // Without limits, a connection maps up to a gigabyte.
        #expect(try await pool.read(settings).first == 1 << 30)
    }
}
