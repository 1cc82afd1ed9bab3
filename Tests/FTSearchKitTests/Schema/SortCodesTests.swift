@testable import FTSearchFormats
import FTSearchSQLite
import FTSearchTestSupport
import Testing

@_spi(Benchmarking) @testable import FTSearchEngine
@_spi(Benchmarking) @testable import FTSearchKit

/// The sort codes (``SortCodes``) order as the keys they begin, are the same from Swift and from
/// SQL, and stay equal to the records' names through every kind of write; `check` notices when
/// they do not, and `rebuild` mends them.
@Suite struct SortCodesTests {
    /// Keys of up to six bytes from an alphabet of the bytes that matter to NOCASE: letters of
    /// both cases, a space, a NUL, bytes of a two-byte UTF-8 letter, one below every letter and
    /// two between the upper and the lower case ones (`[`, `_`: a code folded to upper case
    /// would put `A_` after `AA`). Each pair whose codes differ is compared by SQLite itself.
    @Test func aLowerCodeSortsFirstAndSQLAgrees() throws {
        var random = SeededGenerator(seed: TestSettings.seed)
        let keys = Self.randomKeys(400, using: &random)
        let lower = try Self.expectCodesOrderAsKeys(keys, by: .empty)
        #expect(lower > 10_000)
        func person(_ values: [String]) -> Record {
            Record(kind: .people, searchableValues: values)
        }
        func code(_ record: Record) -> UInt32 { SortCodes.code(ofSortNameOf: record, in: .empty) }
        #expect(
            code(person(["Ann", "Lee", "Acme"]))
                == SortCodeMap.empty.code(ofKey: Array("lee a".utf8)))
        #expect(code(person(["Bo", "", ""])) == 0x20_626F)
        #expect(code(person(["Bo", "A\u{0}z", ""])) == 0x61_0000)
        #expect(
            code(Record(kind: .animals, searchableValues: ["Rex"]))
                == SortCodeMap.empty.code(ofKey: Array("rex".utf8)))
    }

    /// Codes made with maps of every size (two bytes kept after the bucket with fewer than 256
    /// boundaries, one with more) order as the keys do, from Swift and from SQL, for keys the
    /// maps were made from and keys they were not; a record's code is its joined key's.
    /// With long keys too: a common beginning of up to 70 letters, so that keys tie in their
    /// first eight bytes, are cut to ``SortCodeMap/keyLength`` bytes, and part from the
    /// boundary before only after ``SortCodeMap/maximumBoundaryLength``.
    @Test(arguments: [(80, false), (400, false), (3000, false), (3000, true)])
    func aMapsCodesOrderAsTheKeysDo(sampled: Int, long: Bool) throws {
        var random = SeededGenerator(
            seed: TestSettings.seed("SortCodesTests", sampled + (long ? 1 : 0)))
        var keys = SortCodeMap.KeySample()
        for key in Self.randomKeys(sampled, long: long, using: &random) {
            SortCodeMap.folded(key).withUnsafeBufferPointer { keys.append(folded: $0) }
        }
        let map = SortCodeMap(sampling: keys, id: 42)
        #expect(map.boundaryCount > sampled / 16, "\(map.boundaryCount) boundaries")
        #expect(SortCodeMap(id: 42, records: sampled, encoded: map.encoded) == map)
        let lower = try Self.expectCodesOrderAsKeys(
            Self.randomKeys(300, long: long, using: &random), by: map)
        #expect(lower > 10_000)
        #expect(
            SortCodes.code(
                ofSortNameOf: Record(kind: .people, searchableValues: ["A", "Bé", ""]), in: map)
                == map.code(ofKey: Array("bé a".utf8)))
    }

    /// A full sample keeps every second key it holds, so that it stays even: of 100 keys,
    /// a sample of 8 keeps every sixteenth.
    @Test func aFullSampleDropsEverySecondKey() {
        var sample = SortCodeMap.KeySample(capacity: 8)
        for number in 0..<100 {
            Array(String(number).utf8).withUnsafeBufferPointer { sample.append(folded: $0) }
        }
        #expect(sample.records == 100)
        let kept = sample.withKeys { key in
            (0..<sample.count).map { String(decoding: key($0), as: UTF8.self) }
        }
        #expect(kept == ["0", "16", "32", "48", "64", "80", "96"])
    }

    /// A stored map that cannot be read is a damaged database: an error, never a crash.
    @Test func aDamagedMapIsAnErrorAndRebuildMendsIt() throws {
        #expect(SortCodeMap(id: 1, records: 9, encoded: [1, 0, 2, 0x61]) == nil, "cut short")
        #expect(SortCodeMap(id: 1, records: 9, encoded: [1, 0, 1, 0x62, 0, 1, 0x61]) == nil)
        #expect(SortCodeMap(id: 1, records: 9, encoded: [1, 0, 1, 0x41]) == nil, "not folded")
        #expect(SortCodeMap(id: 1, records: 9, encoded: [2, 0, 1, 0x61]) == nil, "format")
        #expect(SortCodeMap(id: 0, records: 9, encoded: [1, 0, 1, 0x61]) == nil, "id 0")
        #expect(SortCodeMap(id: 1, records: .max, encoded: [1, 0, 1, 0x61]) == nil, "records")
        #expect(SortCodeMap(id: 1, records: 9, encoded: [1, 0, 1, 0x61]) != nil)
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople((0..<300).map { ("Ann \($0)", "Lee", "") })
        try index.database.inTransaction {
            try SortCodes.rebuildAll(in: index.database, mapMinimum: 1)
        }
        #expect(try index.check().isEmpty)
        try index.database.execute(sql: "UPDATE sort_code_map SET boundaries = X'01000141'")
        #expect(
            try index.check() == [
                .sortCodesMismatch(table: "people_sort_codes", records: "people"),
                .sortCodesMismatch(table: "animals_sort_codes", records: "animals"),
            ])
        let error = try #require(throws: SQLiteError.self) {
            try index.insert(Person(firstName: "Bo", lastName: "Lee", company: ""))
        }
        #expect(error.code == .corrupt && error.message.contains("ftsearch rebuild"))
        #expect(throws: SQLiteError.self) { try index.importPeople([("Bo", "Lee", "")]) }
        try index.rebuild()
        #expect(try index.check().isEmpty)
        try index.insert(Person(firstName: "Bo", lastName: "Lee", company: ""))
        #expect(try index.check().isEmpty)
    }

    /// Imports `people` (first and last names) into `database` by an importer that makes the
    /// sort code map from `mapMinimum` records on.
    private static func importPeople(
        _ people: [(first: String, last: String)], into database: Database, mapMinimum: Int
    ) throws {
        var importer = Importer(
            database: database, options: ImportOptions(), timestamp: Timestamp.now())
        importer.sortCodeMapMinimum = mapMinimum
        _ = try importer.run([
            ImportSource(
                path: "people.json",
                reader: RecordList(
                    fields: people.map {
                        [("first_name", .string($0.first)), ("last_name", .string($0.last))]
                    }))
        ])
    }

    /// Random keys of up to six bytes from the alphabet above; `long` ones after a run of up
    /// to 70 `a`s or `A`s.
    private static func randomKeys(
        _ count: Int, long: Bool = false, using random: inout SeededGenerator
    ) -> [[UInt8]] {
        let alphabet: [UInt8] = [
            0x61, 0x41, 0x62, 0x42, 0x7A, 0x5A, 0x20, 0x00, 0xC3, 0xA9, 0x2D, 0x5B, 0x5F,
        ]
        return (0..<count).map { _ in
            let start = long ? Int.random(in: 0...70, using: &random) : 0
            return (0..<start).map { _ in random.chance(0.5) ? 0x61 : 0x41 }
                + (0..<Int.random(in: 0...6, using: &random)).map { _ in
                    alphabet.randomElement(using: &random)!
                }
        }
    }

    /// Expects every pair of `keys` whose codes by `map` differ to sort as the codes do, by
    /// ``SortName`` and by SQLite (for the map stored in a database, by the SQL function);
    /// returns how many pairs that was.
    private static func expectCodesOrderAsKeys(_ keys: [[UInt8]], by map: SortCodeMap) throws
        -> Int
    {
        let database = try Database(path: ":memory:")
        try database.registerSearchExtensions()
        try Schema.migrator.migrate(database)
        try database.execute(
            sql: "INSERT INTO sort_code_map(id, records, boundaries) VALUES (?1, ?2, ?3)",
            arguments: [map.id, map.records, map.encoded])
        let sql = try database.makeStatement(
            sql: "SELECT ftsearch_sort_code(CAST(?1 AS TEXT), ?2)")
        let noCase = try database.makeStatement(
            sql: "SELECT CAST(?1 AS TEXT) < CAST(?2 AS TEXT) COLLATE NOCASE")
        var lower = 0
        for a in keys {
            let code = map.code(ofKey: a)
            let fromSQL = try sql.firstRow([DatabaseValue.blob(a), map.isEmpty ? nil : map.id]) {
                $0.bytes(at: 0)
            }
            #expect(fromSQL == SortCodes.bytes(of: code), "\(a)")
            #expect(SortCodes.code(ofBytes: SortCodes.bytes(of: code)) == code)
            for b in keys where code < map.code(ofKey: b) {
                lower += 1
                #expect(SortName.compare(a, b) < 0, "\(a) has a lower code than \(b)")
                let sqlite = try noCase.firstRow([DatabaseValue.blob(a), .blob(b)]) {
                    $0.int(at: 0)
                }
                #expect(sqlite == 1, "\(a) has a lower code than \(b)")
            }
        }
        return lower
    }

    /// Every index's codes equal the records' names (and its indexes the records).
    private static func expectExact(_ index: SearchIndex, _ context: String) throws {
        #expect(try index.check().isEmpty, "\(context)")
        for kind in Kind.allCases {
            #expect(try SortCodes(of: kind).isConsistent(in: index.database), "\(context), \(kind)")
        }
    }

    private static func importPeople(
        _ people: [(id: Int64?, first: String, last: String)], into index: SearchIndex,
        replace: Bool = false
    ) throws {
        let records = people.map { person in
            (person.id.map { [("id", JSONValue.number(String($0)))] } ?? [])
                + [("first_name", .string(person.first)), ("last_name", .string(person.last))]
        }
        try index.importRecords(
            from: [ImportSource(name: "people.json", reader: RecordList(fields: records))],
            options: ImportOptions(replace: replace))
    }

    /// With and without a map (see ``SortCodeMap``): imports code their records on the reading
    /// thread with it, the triggers with the SQL function.
    @Test(arguments: [false, true])
    func everyKindOfWriteKeepsTheCodesExact(withMap: Bool) throws {
        let seed = TestSettings.seed("SortCodesTests", withMap ? 1 : 0)
        var random = SeededGenerator(seed: seed)
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        let names = ["Ann", "ann", "Zoë", "Lee", "", "Van Der", "a\u{0}b", "Ødegaard", "Bo"]
        func name() -> String { names.randomElement(using: &random)! }
        // A person needs a first or last name.
        func person() -> (first: String, last: String) {
            let first = name()
            return (first, first.isEmpty ? "Bo" : name())
        }
        try Self.importPeople(
            (0..<1501).map { number in
                let (first, last) = person()
                return (number == 1500 ? -7 : nil, first, last)
            }, into: index)
        try index.importAnimals(
            (0..<700).map { _ in
                let name = name()
                return name.isEmpty ? "Rex" : name
            })
        if withMap {
            try index.database.inTransaction {
                try SortCodes.rebuildAll(in: index.database, mapMinimum: 1)
            }
            #expect(try !SortCodes.storedMap(in: index.database).isEmpty)
        }
        try Self.expectExact(index, "seed \(seed), after the first imports")
        // A record naming an id this import gave another moves that one to a new id.
        try Self.importPeople([(nil, "Moved", "Away"), (1501, "Takes", "Place")], into: index)
        try Self.expectExact(index, "seed \(seed), after a move")
        #expect(try index.findAll(Person.self).contains { $0.lastName == "Away" })
        for step in 0..<TestSettings.iterations(20) {
            let ids = try index.findAll(Person.self).compactMap(\.id)
            let context = "seed \(seed), step \(step)"
            switch Int.random(in: 0..<8, using: &random) {
            case 0:
                // A third of them begin with a record that a later one moves (it names the id
                // the first gets).
                let highest = try #require(ids.max())
                let moves = random.chance(0.3)
                try Self.importPeople(
                    (moves ? [(nil, "Moved", "Away")] : [])
                        + (0..<Int.random(in: 1...600, using: &random)).map { number in
                            let (first, last) = person()
                            let named = moves && number == 0 ? highest + 1 : nil
                            return (
                                named
                                    ?? (random.chance(0.3)
                                        ? ids.randomElement(using: &random) : nil),
                                first, last
                            )
                        }, into: index)
            case 1:
                let (first, last) = person()
                try index.insert(Person(firstName: first, lastName: last, company: "Acme"))
            case 2:
                let (first, last) = person()
                try index.update(Person.self, id: ids.randomElement(using: &random)!) {
                    $0.firstName = first
                    $0.lastName = last
                }
            case 3:
                try index.update(Person.self, id: ids.randomElement(using: &random)!) {
                    $0.company = "Beta"
                }
            case 4:
                _ = try index.delete(Person.self, ids: [ids.randomElement(using: &random)!])
            case 7:
                // An id changed in SQL, as another program may: the code moves with the record.
                let highest = try #require(ids.max())
                try index.database.execute(
                    sql: "UPDATE people SET id = ?1 WHERE id = ?2",
                    arguments: [
                        highest + Int64.random(in: 1...900, using: &random),
                        ids.randomElement(using: &random)!,
                    ])
            case 5:
                // A failed import leaves the codes as they were.
                let records: [[(String, JSONValue)]] = [
                    [("first_name", .string("Zed")), ("last_name", .string("Zed"))],
                    [("first_name", .string("")), ("note", .string("x"))],
                ]
                #expect(throws: ImportError.self, "\(context)") {
                    try index.importRecords(
                        from: [ImportSource(name: "in.json", reader: RecordList(fields: records))],
                        options: ImportOptions())
                }
            default:
                try Self.importPeople(
                    (0..<Int.random(in: 1...300, using: &random)).map { _ in
                        let (first, last) = person()
                        return (nil, first, last)
                    },
                    into: index, replace: random.chance(0.5))
            }
            try Self.expectExact(index, context)
        }
        let request = SearchRequest(text: "a", kinds: .all, limit: 20, offset: 400)
        #expect(try index.search(request) == (try index.referenceSearch(request)))
        // Listing everything reads which records exist from the codes.
        for offset in [0, 700, 1490, 2300] {
            let listing = SearchRequest(text: "", kinds: .all, limit: 30, offset: offset)
            #expect(try index.search(listing) == (try index.referenceSearch(listing)), "\(offset)")
        }
    }

    /// An import that brings the minimum or more, and three times the records of the map
    /// before, makes the map and every code again; so does the finish of an import whose
    /// codes were made with a map that is no longer the stored one (as when another process
    /// made it again after the import read it).
    @Test func bigImportsMakeTheMapAgain() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        let codes = SortCodes(of: .people)
        func run(_ count: Int, from first: Int = 0) throws {
            try Self.importPeople(
                (first..<first + count).map { ("Ann \($0)", "Dupré") }, into: index.database,
                mapMinimum: 1000)
        }
        try run(999)
        #expect(try SortCodes.storedMap(in: index.database).isEmpty)
        try run(1200, from: 999)
        let map = try SortCodes.storedMap(in: index.database)
        #expect(map.records == 2199 && map.boundaryCount > 100)
        #expect(try codes.isConsistent(in: index.database))
        try run(3000, from: 2199)
        #expect(try SortCodes.storedMap(in: index.database) == map, "not three times its records")
        #expect(try codes.isConsistent(in: index.database))
        try run(6597, from: 5199)
        let remade = try SortCodes.storedMap(in: index.database)
        #expect(remade.id != map.id && remade.records == 11_796)
        #expect(try codes.isConsistent(in: index.database))
        // One last name's people get many codes: a three-letter search reads few names.
        var distinct = Set<UInt32>()
        try codes.everyRecord(in: index.database).forEach { distinct.insert($1) }
        #expect(distinct.count > 1000, "\(distinct.count) codes")
        let request = SearchRequest(text: "dup", kinds: .people, limit: 20, offset: 3000)
        #expect(try index.search(request) == (try index.referenceSearch(request)))

        // A writer that coded its records with a map that is no longer the stored one.
        let writer = try BulkWriter(kind: .people, database: index.database, timestamp: .now())
        try index.database.inTransaction {
            try writer.begin(replacingAll: false)
            _ = try writer.write(Record(kind: .people, searchableValues: ["Bo", "Zed", ""]))
            try writer.finish()
            #expect(try !codes.isConsistent(in: index.database))
            try SortCodes.finishImport(
                inserted: 1, replacingAll: false, codedWith: .empty, mapMinimum: 1000,
                in: index.database)
        }
        #expect(try codes.isConsistent(in: index.database))
        #expect(try SortCodes.storedMap(in: index.database).id != remade.id)
    }

    /// A map made again rewrites the codes of every kind, and a connection drops the code
    /// blocks it kept of each, though the import changed only one kind's index.
    @Test func anotherConnectionReadsTheCodesOfAMapMadeAgain() throws {
        let directory = try TemporaryDirectory()
        let writer = try SearchIndex.temporary(in: directory)
        try writer.importAnimals((0..<600).map { "Rex \($0)" })
        try writer.importPeople((0..<600).map { ("Ann \($0)", "Rex", "") })
        let reader = try SearchIndex(path: writer.path)
        func code(of kind: Kind, _ id: Int64, keeping: Bool = true) throws -> UInt32? {
            try reader.database.readingOneVersion {
                let blocks = RowBlockReader(
                    database: reader.database, blocks: SortCodes(of: kind).blocks,
                    keepsBlocks: keeping)
                defer { blocks.close() }
                return blocks.code(ofRow: id)
            }
        }
        let before = try code(of: .animals, 500)  // kept now
        try Self.importPeople(
            (0..<2000).map { ("Bo \($0)", "Rex") }, into: writer.database, mapMinimum: 1000)
        #expect(try !SortCodes.storedMap(in: writer.database).isEmpty)
        let after = try code(of: .animals, 500, keeping: false)
        #expect(after != before, "the map changed the animal's code")
        #expect(try code(of: .animals, 500) == after)
        for offset in [0, 300, 1500] {
            let request = SearchRequest(text: "rex", kinds: .all, limit: 20, offset: offset)
            #expect(try reader.search(request) == (try reader.referenceSearch(request)))
        }
    }
}
