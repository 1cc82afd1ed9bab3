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
}
