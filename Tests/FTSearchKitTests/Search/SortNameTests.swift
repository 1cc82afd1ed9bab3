import FTSearchSQLite
import FTSearchTestSupport
import Testing

@testable import FTSearchKit

/// The sort name has one definition (``SortName``): the listing indexes frozen in the migrations
/// must be on its expression, or listing sorts every row; its comparator must agree with
/// SQLite's NOCASE collation, or the fast plan orders ties differently from the reference plan.
@Suite struct SortNameTests {
    @Test(arguments: Kind.allCases)
    func listingBySortNameReadsTheIndex(kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        let plan = try index.database.makeStatement(
            sql: """
                EXPLAIN QUERY PLAN SELECT id FROM \(kind.tableName)
                ORDER BY (\(SortName.sql(of: kind))) COLLATE NOCASE LIMIT 5
                """)
        var details: [String] = []
        try plan.forEachRow { details.append($0.text(at: 3) ?? "") }
        #expect(details.contains { $0.contains(" INDEX \(kind.rawValue)_by_") }, "\(details)")
        #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(details)")
    }

    @Test func comparatorAgreesWithSQLiteNoCase() throws {
        let database = try Database(path: ":memory:")
        let compare = try database.makeStatement(
            sql: "SELECT (?1 < ?2 COLLATE NOCASE) - (?1 > ?2 COLLATE NOCASE)")
        var random = SeededGenerator(seed: TestSettings.seed)
        let alphabet = Array("aAbBzZ _-'éÉ\u{0}0")
        for _ in 0..<2000 {
            let left = String(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    alphabet.randomElement(using: &random)!
                })
            let right = String(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    alphabet.randomElement(using: &random)!
                })
            let sqlite = try compare.firstRow([left, right]) { $0.int(at: 0) } ?? 0
            let ours = SortName.compare(Array(left.utf8), Array(right.utf8)).signum()
            #expect(ours == -sqlite, "\(left.debugDescription) vs \(right.debugDescription)")
        }
    }

    /// A table of many rows' sort keys gives the rows at any window of the order by group,
    /// sort key, kind and id by selection: the same rows, in the same order, as sorting them
    /// all, whatever the window (empty, one row, across groups, running past the end). So
    /// does a table of the keys' beginnings narrowed to the window, then the rows it leaves
    /// read whole — or it says it cannot tell: last names of several words that begin one
    /// another (`Van`, `Van Der`, `van der Berg`, `Van ` with its space) or end in a space,
    /// first names that are words of last names, animals named as people's keys begin, and
    /// (in a few draws) a NUL byte.
    @Test func aWindowOfTheKeyTableEqualsTheSameWindowOfEveryRowSorted() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        let lastNames = [
            "Lee", "lee", "LEE", "Leeds", "Lee-Ann", "Le", "L", "Ødegaard", "Van", "Van Der",
            "van der Berg", "Vander", "Van-Dyke", "Van ", "O'Brien", "Lee\u{0}x", "Lee\u{0}xy",
        ]
        let firstNames = ["", "a", "A", "b", "Ann", "ann", "Der", "Der Berg", "Zoë", "\u{0}"]
        let animalNames = lastNames + ["Van Der Ann", "Lee Ann", "van zed", "Van Der "]
        var random = SeededGenerator(seed: TestSettings.seed)
        // NUL bytes only in the last 50 people and animals.
        try index.importPeople(
            (0..<3000).map { number in
                (
                    firstNames.dropLast(number < 2950 ? 1 : 0).randomElement(using: &random)!,
                    lastNames.dropLast(number < 2950 ? 2 : 0).randomElement(using: &random)!,
                    ""
                )
            })
        try index.importAnimals(
            (0..<500).map { number in
                animalNames.filter { number >= 450 || !$0.contains("\u{0}") }
                    .randomElement(using: &random)!
            })
        var keys = SortKeys(database: index.database)
        var narrowings = 0
        for round in 0..<60 {
            let groups = Int.random(in: 1...4, using: &random)
            let highest = round % 3 == 0 ? (3000, 500) : (2950, 450)
            let rows =
                ((1...highest.0).map { (kind: Kind.people, rowid: Int64($0)) }
                + (1...highest.1).map { (kind: Kind.animals, rowid: Int64($0)) })
                .shuffled(using: &random)
                .prefix(Int.random(in: 1...3400, using: &random))
                .map {
                    (
                        group: Int.random(in: 0..<groups, using: &random), kind: $0.kind,
                        rowid: $0.rowid
                    )
                }
            var sorted: [(group: Int, key: [UInt8], kind: Kind, rowid: Int64)] = []
            for row in rows {
                let key = keys.key(of: row.kind, rowid: row.rowid)
                sorted.append((row.group, try #require(key), row.kind, row.rowid))
            }
            sorted.sort { a, b in
                a.group != b.group
                    ? a.group < b.group
                    : SortKeys.precedes((a.key, a.kind, a.rowid), (b.key, b.kind, b.rowid))
            }
            let read = SortKeyTable(reading: rows, with: &keys)
            let table = try #require(read)
            let readBeginnings = SortKeyTable(reading: rows, .beginnings, with: &keys)
            let beginnings = try #require(readBeginnings)
            let start = Int.random(in: 0...rows.count + 5, using: &random)
            for window in [start..<start, start..<start + 1, start..<start + 20, 0..<rows.count] {
                let expected = sorted[window.clamped(to: 0..<sorted.count)]
                func expectExpected(_ selected: [SortKeyTable.Row], _ how: String) {
                    #expect(
                        selected.map(\.rowid) == expected.map(\.rowid)
                            && selected.map(\.kind) == expected.map(\.kind)
                            && selected.map(\.group) == expected.map(\.group),
                        "\(how): \(window) of \(rows.count)")
                }
                expectExpected(table.rows(at: window), "whole keys")
                guard let narrowed = beginnings.narrowed(to: window) else { continue }
                narrowings += 1
                let readInside = SortKeyTable(reading: narrowed.rows, with: &keys)
                let inside = try #require(readInside)
                expectExpected(
                    inside.rows(
                        at: (window.lowerBound - narrowed.before)..<(window.upperBound
                            - narrowed.before)),
                    "narrowed to \(narrowed.rows.count) after \(narrowed.before)")
            }
        }
        // Most windows are told from the beginnings.
        #expect(narrowings > 120)
    }

    /// NOCASE stops comparing at a NUL byte and orders by length: `Lee\0x ` begins
    /// `Lee\0x Der Berg`, which sorts after `Lee\0xy a` though its beginning sorts first. A
    /// table of beginnings with a NUL byte does not narrow a window, at any position.
    @Test func beginningsWithANulByteDoNotNarrowAWindow() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        try index.importPeople(
            Array(repeating: ("Der Berg", "Lee\u{0}x", ""), count: 5)
                + Array(repeating: ("a", "Lee\u{0}xy", ""), count: 5)
                + Array(repeating: ("Ann", "Smith", ""), count: 5))
        var keys = SortKeys(database: index.database)
        let rows = (1...15).map { (group: 0, kind: Kind.people, rowid: Int64($0)) }
        let read = SortKeyTable(reading: rows, .beginnings, with: &keys)
        let beginnings = try #require(read)
        for start in 0..<rows.count {
            #expect(beginnings.narrowed(to: start..<start + 1) == nil, "at \(start)")
        }
    }

    /// Picking out the first rows of a big group of equal scores must give what sorting every
    /// row gives, though it reads only the first column of most: last names that begin others
    /// (`Lee`, `Leeds`, `Lee-Ann`), that differ in case only, empty first names, and NUL bytes, which
    /// end SQLite's comparison.
    @Test func pickingOutTheFirstRowsEqualsSortingThemAll() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        let lastNames = [
            "Lee", "lee", "LEE", "Leeds", "Lee-Ann", "Le", "L", "Lee\u{0}x", "Ødegaard", "ob",
        ]
        let firstNames = ["", "a", "A", "b", "Ann", "ann", "\u{0}", "Zoë"]
        var random = SeededGenerator(seed: TestSettings.seed)
        try index.importPeople(
            (0..<600).map { _ in
                (
                    firstNames.randomElement(using: &random)!,
                    lastNames.randomElement(using: &random)!, ""
                )
            })
        try index.importAnimals((0..<200).map { _ in lastNames.randomElement(using: &random)! })
        var keys = SortKeys(database: index.database)
        let rows =
            (1...600).map { (kind: Kind.people, rowid: Int64($0)) }
            + (1...200).map { (kind: Kind.animals, rowid: Int64($0)) }
        for count in [0, 1, 5, 20, 150, 800, 900] {
            let group = Array(
                rows.shuffled(using: &random).prefix(Int.random(in: 1...800, using: &random)))
            var sorted: [(key: [UInt8], kind: Kind, rowid: Int64)] = []
            for row in group {
                let key = keys.key(of: row.kind, rowid: row.rowid)
                sorted.append((try #require(key), row.kind, row.rowid))
            }
            sorted.sort(by: SortKeys.precedes)
            let picked = keys.first(count, of: group)
            let first = try #require(picked)
            #expect(
                first.map(\.kind) == sorted.prefix(count).map(\.kind),
                "first \(count) of \(group.count)")
            #expect(
                first.map(\.rowid) == sorted.prefix(count).map(\.rowid),
                "first \(count) of \(group.count)")
            #expect(
                first.map(\.key) == sorted.prefix(count).map(\.key),
                "first \(count) of \(group.count)")
        }
    }
}
