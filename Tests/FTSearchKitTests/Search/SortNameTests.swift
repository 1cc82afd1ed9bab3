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
    /// all, whatever the window (empty, one row, across groups, running past the end).
    @Test func aWindowOfTheKeyTableEqualsTheSameWindowOfEveryRowSorted() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        let lastNames = [
            "Lee", "lee", "LEE", "Leeds", "Lee-Ann", "Le", "L", "Lee\u{0}x", "Ødegaard",
        ]
        let firstNames = ["", "a", "A", "b", "Ann", "ann", "\u{0}", "Zoë"]
        var random = SeededGenerator(seed: TestSettings.seed)
        try index.importPeople(
            (0..<3000).map { _ in
                (
                    firstNames.randomElement(using: &random)!,
                    lastNames.randomElement(using: &random)!, ""
                )
            })
        try index.importAnimals((0..<500).map { _ in lastNames.randomElement(using: &random)! })
        var keys = SortKeys(database: index.database)
        for _ in 0..<40 {
            let groups = Int.random(in: 1...4, using: &random)
            let rows =
                ((1...3000).map { (kind: Kind.people, rowid: Int64($0)) }
                + (1...500).map { (kind: Kind.animals, rowid: Int64($0)) })
                .shuffled(using: &random)
                .prefix(Int.random(in: 1...3500, using: &random))
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
            let start = Int.random(in: 0...rows.count + 5, using: &random)
            for window in [start..<start, start..<start + 1, start..<start + 20, 0..<rows.count] {
                let expected = sorted[window.clamped(to: 0..<sorted.count)]
                let selected = table.rows(at: window)
                #expect(
                    selected.map(\.rowid) == expected.map(\.rowid)
                        && selected.map(\.kind) == expected.map(\.kind)
                        && selected.map(\.group) == expected.map(\.group),
                    "\(window) of \(rows.count)")
            }
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
