import FTSearchSQLite
import FTSearchTestSupport
import Testing

@testable import FTSearchEngine
@testable import FTSearchKit

/// The sort name has one definition (``SortName``): its comparator must agree with SQLite's
/// NOCASE collation, and the sort codes with the comparator, or the fast plans order ties and
/// listings differently from the reference plan.
@Suite struct SortNameTests {
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
    /// does a table of their sort codes, reading the whole keys of only the rows whose codes
    /// tie in the window: with last names that begin one another (`Van`, `Van Der`, `Van `), differ in
    /// case only or after four bytes, are empty, begin with a two-byte letter, or hold a NUL
    /// byte (where NOCASE stops comparing and orders by length).
    @Test func aWindowOfTheKeyTableEqualsTheSameWindowOfEveryRowSorted() throws {
        let directory = try TemporaryDirectory()
        let index = try SearchIndex.temporary(in: directory)
        let lastNames = [
            "Lee", "lee", "LEE", "Leeds", "Lee-Ann", "Le", "L", "Ødegaard", "Van", "Van Der",
            "van der Berg", "Vander", "Van-Dyke", "Van ", "O'Brien", "Lee\u{0}x", "Lee\u{0}xy",
            "", "L\u{0}", "\u{0}a", "Smithson", "Smithers", "SMITH",
        ]
        let firstNames = ["", "a", "A", "b", "Ann", "ann", "Der", "Der Berg", "Zoë", "\u{0}"]
        let animalNames =
            lastNames.filter { !$0.isEmpty } + ["Van Der Ann", "Lee Ann", "van zed", "Van Der "]
        var random = SeededGenerator(seed: TestSettings.seed)
        try index.importPeople(
            (0..<3000).map { _ in
                let last = lastNames.randomElement(using: &random)!
                // A person needs a first or last name.
                let first = firstNames.dropFirst(last.isEmpty ? 1 : 0).randomElement(
                    using: &random)!
                return (first, last, "")
            })
        try index.importAnimals((0..<500).map { _ in animalNames.randomElement(using: &random)! })
        var keys = SortKeys(database: index.database)
        var (keysRead, allRows) = (0, 0)
        for _ in 0..<60 {
            let groups = Int.random(in: 1...4, using: &random)
            let rows =
                ((1...3000).map { (kind: Kind.people, rowid: Int64($0)) }
                + (1...500).map { (kind: Kind.animals, rowid: Int64($0)) })
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
            let readCodes = try SortCodeTable(reading: rows, in: index.database)
            let codes = try #require(readCodes)
            let start = Int.random(in: 0...rows.count + 5, using: &random)
            for window in [start..<start, start..<start + 1, start..<start + 20, 0..<rows.count] {
                let expected = sorted[window.clamped(to: 0..<sorted.count)]
                func expectExpected(
                    _ selected: [(group: Int, kind: Kind, rowid: Int64)], _ how: String
                ) {
                    #expect(
                        selected.map(\.rowid) == expected.map(\.rowid)
                            && selected.map(\.kind) == expected.map(\.kind)
                            && selected.map(\.group) == expected.map(\.group),
                        "\(how): \(window) of \(rows.count)")
                }
                expectExpected(
                    table.rows(at: window).map { ($0.group, $0.kind, $0.rowid) }, "whole keys")
                var tied = 0
                let byCodes = codes.rows(
                    at: window,
                    orderingRunsBy: { rows, wanted in
                        tied += rows.count
                        return SortKeyTable(reading: rows, with: &keys)?.rows(at: wanted).map {
                            ($0.group, $0.kind, $0.rowid)
                        }
                    })
                expectExpected(try #require(byCodes), "by codes, \(tied) keys read")
                if window.count == 20 {
                    keysRead += tied
                    allRows += rows.count
                }
            }
        }
        // The codes leave few rows in question.
        #expect(keysRead * 4 < allRows, "\(keysRead) of \(allRows)")
    }
}
