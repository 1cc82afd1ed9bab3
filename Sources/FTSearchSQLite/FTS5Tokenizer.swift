import CSQLite
#if canImport(Glibc)
    import Glibc
#endif

/// An FTS5 tokenizer called directly, so that text outside the index (queries, history keys)
/// is split and folded exactly as the index splits and folds the text it stores.
///
/// See https://sqlite.org/fts5.html#custom_tokenizers for the `fts5_tokenizer` interface.
///
/// ```swift
/// let tokenizer = try FTS5Tokenizer(database: database, arguments: ["remove_diacritics", "2"])
/// tokenizer.tokens(in: "Zoë O'Brien").map(\.text)  // ["zoe", "o", "brien"]
/// ```
package final class FTS5Tokenizer {
    /// One token: its folded text and where its source text lies in the input's UTF-8 bytes.
    package struct Token: Equatable, Sendable {
        /// The folded token, as stored in the index.
        package var text: String
        /// The byte range of the original text in the input's UTF-8 representation.
        package var sourceRange: Range<Int>
    }

    /// The connection whose FTS5 module made the tokenizer, kept alive by it; nil for one the
    /// connection keeps (``kept(named:on:)``), which must not keep the connection alive in turn.
    private let database: Database?
    private var methods: fts5_tokenizer
    private let instance: OpaquePointer

    /// Creates a tokenizer of the connection's FTS5 module.
    ///
    /// - Parameters:
    ///   - database: The connection whose FTS5 module provides the tokenizer; kept alive.
    ///   - name: The tokenizer's name, such as `unicode61`.
    ///   - arguments: The tokenizer's options, as in a `tokenize=` table option.
    /// - Throws: ``SQLiteError`` when FTS5 or the tokenizer is missing.
    package convenience init(
        database: Database, name: String = "unicode61", arguments: [String] = []
    ) throws(SQLiteError) {
        try self.init(module: database, name: name, arguments: arguments, keepsAlive: true)
    }

    /// The tokenizer `name`, without arguments, of the connection's FTS5 module: made the
    /// first time it is asked for, then kept with the connection (see
    /// ``Database/kept(_:orMake:)``). Finding FTS5's API prepares a statement, so a tokenizer
    /// made for each search would cost each search a parse.
    package static func kept(named name: String, on database: Database) throws(SQLiteError)
        -> FTS5Tokenizer
    {
        let kept = database.kept(KeptTokenizers.self) { KeptTokenizers() }
        if let tokenizer = kept.tokenizers[name] { return tokenizer }
        let tokenizer = try FTS5Tokenizer(
            module: database, name: name, arguments: [], keepsAlive: false)
        kept.tokenizers[name] = tokenizer
        return tokenizer
    }

    /// The tokenizers a connection keeps, by name.
    private final class KeptTokenizers {
        var tokenizers: [String: FTS5Tokenizer] = [:]
    }

    private init(module database: Database, name: String, arguments: [String], keepsAlive: Bool)
        throws(SQLiteError)
    {
        let api = try database.fts5API()
        var context: UnsafeMutableRawPointer?
        var methods = fts5_tokenizer()
        var code = api.pointee.xFindTokenizer(api, name, &context, &methods)
        guard code == SQLITE_OK, let create = methods.xCreate else {
            throw SQLiteError(extendedResultCode: code, message: "no such tokenizer: \(name)")
        }
        var instance: OpaquePointer?
        code = Self.withCStrings(arguments) {
            create(context, $0, Int32(arguments.count), &instance)
        }
        guard code == SQLITE_OK, let instance else {
            throw SQLiteError(extendedResultCode: code, message: "cannot create tokenizer \(name)")
        }
        self.database = keepsAlive ? database : nil
        self.methods = methods
        self.instance = instance
    }

    deinit {
        methods.xDelete?(instance)
    }

    /// Splits `text` into folded tokens, in order: as a query is split, or with `asDocument`,
    /// as the index splits the text it stores (with any colocated tokens the tokenizer adds).
    package func tokens(in text: String, asDocument: Bool = false) -> [Token] {
        var collector = Collector()
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            withUnsafeMutablePointer(to: &collector) { collectorPointer in
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { characters in
                    _ = methods.xTokenize(
                        instance, collectorPointer,
                        asDocument ? FTS5_TOKENIZE_DOCUMENT : FTS5_TOKENIZE_QUERY, characters,
                        Int32(bytes.count), Collector.receive)
                }
            }
        }
        return collector.tokens
    }

    private struct Collector {
        var tokens: [Token] = []

        static let receive:
            @convention(c) (
                UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32
            ) -> Int32 = { context, _, token, length, start, end in
                guard let context, let token else { return SQLITE_OK }
                let text = token.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                    String(
                        decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
                }
                context.assumingMemoryBound(to: Collector.self).pointee.tokens.append(
                    Token(text: text, sourceRange: Int(start)..<Int(end)))
                return SQLITE_OK
            }
    }

    private static func withCStrings<R>(
        _ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R
    ) -> R {
        let duplicates = strings.map { UnsafePointer(strdup($0)) }
        defer { duplicates.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        var pointers = duplicates
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
