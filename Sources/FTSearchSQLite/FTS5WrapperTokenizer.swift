import CSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why FTS5 tokenizes a text (https://sqlite.org/fts5.html#custom_tokenizers).
package struct FTS5TokenizeFlags: OptionSet, Sendable {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// A MATCH query.
    package static let query = Self(rawValue: FTS5_TOKENIZE_QUERY)
    /// A prefix query's last token (with ``query``).
    package static let prefix = Self(rawValue: FTS5_TOKENIZE_PREFIX)
    /// A document being indexed or deleted from the index.
    package static let document = Self(rawValue: FTS5_TOKENIZE_DOCUMENT)
    /// An auxiliary function's tokenizing of a document.
    package static let aux = Self(rawValue: FTS5_TOKENIZE_AUX)
}

/// What a token is to FTS5 besides its text.
package struct FTS5TokenFlags: OptionSet, Sendable {
    package let rawValue: Int32
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The token is at the same position as the one before (a synonym, an accent form).
    package static let colocated = Self(rawValue: FTS5_TOKEN_COLOCATED)
}

/// FTS5's callback for the tokens of the text being tokenized.
package struct FTS5TokenSink {
    package typealias Callback =
        @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32)
        -> Int32

    private let context: UnsafeMutableRawPointer?
    private let callback: Callback

    fileprivate init(context: UnsafeMutableRawPointer?, callback: @escaping Callback) {
        self.context = context
        self.callback = callback
    }

    /// A sink that takes no token (it answers `SQLITE_MISUSE`): what a tokenizer holds
    /// between texts.
    package static var none: FTS5TokenSink {
        FTS5TokenSink(context: nil) { _, _, _, _, _, _ in SQLITE_MISUSE }
    }

    /// Passes a token on: its bytes, its flags, and the byte range of the text it comes from.
    /// Returns FTS5's result code, which a tokenizer returns at once when it is not
    /// ``SQLiteResultCode/ok``.
    @inline(__always)
    package func emit(
        _ token: UnsafeRawBufferPointer, flags: FTS5TokenFlags, start: Int32, end: Int32
    ) -> Int32 {
        callback(
            context, flags.rawValue, token.baseAddress?.assumingMemoryBound(to: CChar.self),
            Int32(token.count), start, end)
    }
}

/// An instance of one of the connection's FTS5 tokenizers, which a ``FTS5WrapperTokenizer``
/// wraps.
package final class FTS5WrappedTokenizer {
    private let methods: fts5_tokenizer
    private let instance: OpaquePointer

    fileprivate init(methods: fts5_tokenizer, instance: OpaquePointer) {
        self.methods = methods
        self.instance = instance
    }

    deinit { methods.xDelete?(instance) }

    /// Tokenizes `text` as the wrapped tokenizer does, calling `callback` with `context` and
    /// each token, as FTS5 calls a sink (see ``FTS5TokenSink/Callback``); returns the first
    /// result code other than OK that `callback` returned, or the tokenizer's. No closure: a
    /// closure made non-escaping for C cost two allocations for every text an import indexed.
    package func tokenize(
        _ text: UnsafeRawBufferPointer, flags: FTS5TokenizeFlags,
        context: UnsafeMutableRawPointer?, callback: FTS5TokenSink.Callback
    ) -> Int32 {
        methods.xTokenize(
            instance, context, flags.rawValue,
            text.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(text.count), callback)
    }
}

/// An FTS5 tokenizer written in Swift that wraps one of the connection's tokenizers, as
/// GRDB's `FTS5WrapperTokenizer`: FTS5 calls ``tokenize(_:flags:wrapped:into:)`` with the
/// text, and it passes tokens on to the sink, usually from the wrapped tokenizer's.
package protocol FTS5WrapperTokenizer: AnyObject {
    /// Tokenizes `text`, passing each token to `sink`; returns a result code (OK, or the first
    /// other code the sink or the wrapped tokenizer returned).
    func tokenize(
        _ text: UnsafeRawBufferPointer, flags: FTS5TokenizeFlags, wrapped: FTS5WrappedTokenizer,
        into sink: FTS5TokenSink
    ) -> Int32
}

extension Database {
    /// Registers the tokenizer `name` with this connection's FTS5: each table declared with it
    /// gets an instance of `make()`, wrapping an instance of the tokenizer `wrappedName` made
    /// with `arguments` (https://sqlite.org/fts5.html#custom_tokenizers).
    package func registerTokenizer(
        named name: String, wrapping wrappedName: String, arguments: [String],
        _ make: @escaping () -> any FTS5WrapperTokenizer
    ) throws(SQLiteError) {
        let api = try fts5API()
        let factory = TokenizerFactory(
            api: api, wrappedName: wrappedName, arguments: arguments, make: make)
        var methods = fts5_tokenizer(
            xCreate: TokenizerFactory.create, xDelete: TokenizerFactory.delete,
            xTokenize: TokenizerFactory.tokenize)
        let code = api.pointee.xCreateTokenizer(
            api, name, Unmanaged.passRetained(factory).toOpaque(), &methods,
            { factory in factory.map { Unmanaged<TokenizerFactory>.fromOpaque($0).release() } })
        guard code == SQLITE_OK else {
            throw SQLiteError(extendedResultCode: code, message: "cannot register \(name)")
        }
    }

    /// This connection's FTS5 API (https://sqlite.org/fts5.html#extending_fts5), found once.
    ///
    /// - Throws: ``SQLiteError`` when this SQLite has no FTS5.
    func fts5API() throws(SQLiteError) -> UnsafeMutablePointer<fts5_api> {
        let kept = kept(KeptFTS5API.self) { KeptFTS5API(csqlite_fts5_api(handle)) }
        guard let api = kept.api else {
            throw SQLiteError(.error, message: "FTS5 is not available")
        }
        return api
    }
}

private final class KeptFTS5API {
    let api: UnsafeMutablePointer<fts5_api>?
    init(_ api: UnsafeMutablePointer<fts5_api>?) { self.api = api }
}

/// What a registered wrapper tokenizer makes its instances with.
private final class TokenizerFactory {
    let api: UnsafeMutablePointer<fts5_api>
    let wrappedName: String
    let arguments: [String]
    let make: () -> any FTS5WrapperTokenizer

    init(
        api: UnsafeMutablePointer<fts5_api>, wrappedName: String, arguments: [String],
        make: @escaping () -> any FTS5WrapperTokenizer
    ) {
        self.api = api
        self.wrappedName = wrappedName
        self.arguments = arguments
        self.make = make
    }

    /// One table's tokenizer: the Swift one and the instance it wraps.
    final class Instance {
        let tokenizer: any FTS5WrapperTokenizer
        let wrapped: FTS5WrappedTokenizer

        init(tokenizer: any FTS5WrapperTokenizer, wrapped: FTS5WrappedTokenizer) {
            self.tokenizer = tokenizer
            self.wrapped = wrapped
        }
    }

    static let create:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32,
            UnsafeMutablePointer<OpaquePointer?>?
        ) -> Int32 = { factoryPointer, _, _, output in
            guard let factoryPointer, let output else { return SQLITE_MISUSE }
            let factory = Unmanaged<TokenizerFactory>.fromOpaque(factoryPointer)
                .takeUnretainedValue()
            let api = factory.api
            var context: UnsafeMutableRawPointer?
            var methods = fts5_tokenizer()
            var code = api.pointee.xFindTokenizer(api, factory.wrappedName, &context, &methods)
            guard code == SQLITE_OK, let create = methods.xCreate else { return code }
            var base: OpaquePointer?
            let arguments = factory.arguments.map { strdup($0) }
            defer { arguments.forEach { free($0) } }
            var pointers: [UnsafePointer<CChar>?] = arguments.map { $0.map { UnsafePointer($0) } }
            code = pointers.withUnsafeMutableBufferPointer {
                create(context, $0.baseAddress, Int32($0.count), &base)
            }
            guard code == SQLITE_OK, let base else {
                return code == SQLITE_OK ? SQLITE_ERROR : code
            }
            let instance = Instance(
                tokenizer: factory.make(),
                wrapped: FTS5WrappedTokenizer(methods: methods, instance: base))
            output.pointee = OpaquePointer(Unmanaged.passRetained(instance).toOpaque())
            return SQLITE_OK
        }

    static let delete: @convention(c) (OpaquePointer?) -> Void = { instance in
        guard let instance else { return }
        Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(instance)).release()
    }

    static let tokenize:
        @convention(c) (
            OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32,
            FTS5TokenSink.Callback?
        ) -> Int32 = { instancePointer, context, flags, text, length, callback in
            guard let instancePointer, let callback else { return SQLITE_MISUSE }
            let instance = Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(instancePointer))
                .takeUnretainedValue()
            return instance.tokenizer.tokenize(
                UnsafeRawBufferPointer(start: text, count: text == nil ? 0 : Int(length)),
                flags: FTS5TokenizeFlags(rawValue: flags), wrapped: instance.wrapped,
                into: FTS5TokenSink(context: context, callback: callback))
        }
}
