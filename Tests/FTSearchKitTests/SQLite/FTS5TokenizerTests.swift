import Testing
@testable import FTSearchEngine
@testable import FTSearchKit
import FTSearchSQLite

@Suite struct FTS5TokenizerTests {
    let tokenizer: FTS5Tokenizer

    init() throws {
        tokenizer = try FTS5Tokenizer(
            database: Database(path: ":memory:"), arguments: ["remove_diacritics", "2"])
    }

    @Test(arguments: [
        ("Zoë O'Brien", ["zoe", "o", "brien"]),
        ("Smith-Jones", ["smith", "jones"]),
        ("AT&T", ["at", "t"]),
        ("Łukasz Müller Søren Ångström", ["łukasz", "muller", "søren", "angstrom"]),
        ("\"ann\"* AND -(x):^y NEAR", ["ann", "and", "x", "y", "near"]),
        ("   ", []),
        ("*-\"'", []),
        ("Anna2 99", ["anna2", "99"]),
    ])
    func splitsAndFoldsLikeTheIndex(text: String, expected: [String]) {
        #expect(tokenizer.tokens(in: text).map(\.text) == expected)
    }

    @Test func reportsWhereEachTokenCameFrom() {
        let tokens = tokenizer.tokens(in: "Zoë O'Brien")
        #expect(tokens.map(\.sourceRange) == [0..<4, 5..<6, 7..<12])
    }

    /// A connection makes each tokenizer it is asked for once, and is not kept alive by it.
    @Test func aConnectionKeepsOneTokenizerOfEachName() throws {
        weak var released: Database?
        try {
            let database = try Database(path: ":memory:")
            let kept = try FTS5Tokenizer.kept(named: "unicode61", on: database)
            #expect(try FTS5Tokenizer.kept(named: "unicode61", on: database) === kept)
            #expect(try FTS5Tokenizer.kept(named: "porter", on: database) !== kept)
            #expect(kept.tokens(in: "Zoë O'Brien").map(\.text) == ["zoe", "o", "brien"])
            released = database
        }()
        #expect(released == nil)
    }

    @Test func unknownTokenizerIsAnError() throws {
        #expect(throws: SQLiteError.self) {
            try FTS5Tokenizer(database: Database(path: ":memory:"), name: "nope")
        }
    }
}
