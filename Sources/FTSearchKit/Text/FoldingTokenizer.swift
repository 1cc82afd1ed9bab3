import CSQLite
import FTSearchSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ftsearch's own FTS5 tokenizers (https://sqlite.org/fts5.html#custom_tokenizers), registered
/// on every connection the library opens.
///
/// - `ftsearch` wraps `unicode61 remove_diacritics 2` (letters, digits and combining marks;
///   case and Latin accents folded) and folds further what unicode61 leaves alone, in every
///   script (see ``LetterFolding``): ø→o, ł→l, ß→ss, ǿ→o, ŋ→n, ǆ→dz, Greek and Cyrillic
///   accents. `Søren` is `soren`, `Straße` is `strasse`, `Ελένη` is `ελενη`, `Фёдор` is
///   `федор`.
/// - `ftsearch_trigram` folds the same way, then emits each word's trigrams for substring
///   search: a word is padded as `" " + word + "  "` so that every trigram starting inside it
///   exists (`"ann"` → ` an`, `ann`, `nn `, `n  `), a 1- or 2-letter infix is a trigram prefix
///   (`"n"*`), and the leading and trailing spaces anchor a word's start and end. No trigram
///   spans two words. In a query, text starting with ``wordStartMarker`` or ending with
///   ``wordEndMarker`` is anchored there; text shorter than three letters (with its anchors) is
///   emitted as is, for a prefix query.
///
/// Because every token of the index, the query, highlighting, history keys and suggestions goes
/// through ``FTS5Tokenizer`` with the `ftsearch` tokenizer, they can never disagree.
enum FoldingTokenizer {
    static let name = "ftsearch"
    static let trigramName = "ftsearch_trigram"
    /// Starts an accent form: in the word index, a word written with letters that folding
    /// changes (`Müller`, `Straße`, `Søren`) also gets, at the same position, its lowercase
    /// form with those letters kept after this marker (`\u{1}müller`); query text starting
    /// with it is tokenized into such forms (U+0001, never part of a token). Ranking uses them
    /// to put records with the accents typed above those matching only after folding.
    static let accentMarker: Character = "\u{1}"
    /// Anchors a trigram query at the start of a word (U+0002, never part of a token).
    static let wordStartMarker: Character = "\u{2}"
    /// Anchors a trigram query at the end of a word (U+0003, never part of a token).
    static let wordEndMarker: Character = "\u{3}"

    /// The wrapped unicode61's options: case and Latin accents folded, and combining marks
    /// (categories M*) kept inside words rather than splitting them, so that Devanagari,
    /// Thai or Arabic words with vowel signs stay whole and decomposed accents reach
    /// ``LetterFolding``, which removes them.
    static let unicode61Arguments = ["remove_diacritics", "2", "categories", "L* N* Co M*"]

    /// Registers both tokenizers with a connection's FTS5 (see
    /// ``FTSearchSQLite/Database/registerSearchExtensions()``).
    static func register(with api: UnsafeMutablePointer<fts5_api>) throws(SQLiteError) {
        for (name, create) in [(name, createWords), (trigramName, createTrigrams)] {
            var methods = fts5_tokenizer(xCreate: create, xDelete: delete, xTokenize: tokenize)
            let code = api.pointee.xCreateTokenizer(
                api, name, UnsafeMutableRawPointer(api), &methods, nil)
            guard code == SQLITE_OK else {
                throw SQLiteError(extendedResultCode: code, message: "cannot register \(name)")
            }
        }
    }

    /// One tokenizer instance: the wrapped unicode61 instance and what to emit.
    private final class Instance {
        let methods: fts5_tokenizer
        let base: OpaquePointer
        let emitsTrigrams: Bool

        init(methods: fts5_tokenizer, base: OpaquePointer, emitsTrigrams: Bool) {
            self.methods = methods
            self.base = base
            self.emitsTrigrams = emitsTrigrams
        }

        deinit { methods.xDelete?(base) }
    }

    private typealias TokenCallback =
        @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32)
        -> Int32

    private static let createWords:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32,
            UnsafeMutablePointer<OpaquePointer?>?
        ) -> Int32 = { api, _, _, output in
            FoldingTokenizer.create(api: api, emitsTrigrams: false, output: output)
        }

    private static let createTrigrams:
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32,
            UnsafeMutablePointer<OpaquePointer?>?
        ) -> Int32 = { api, _, _, output in
            FoldingTokenizer.create(api: api, emitsTrigrams: true, output: output)
        }

    private static func create(
        api: UnsafeMutableRawPointer?, emitsTrigrams: Bool,
        output: UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32 {
        guard let api = api?.assumingMemoryBound(to: fts5_api.self), let output else {
            return SQLITE_MISUSE
        }
        var context: UnsafeMutableRawPointer?
        var methods = fts5_tokenizer()
        var code = api.pointee.xFindTokenizer(api, "unicode61", &context, &methods)
        guard code == SQLITE_OK, let create = methods.xCreate else { return code }
        var base: OpaquePointer?
        let arguments = unicode61Arguments.map { strdup($0) }
        defer { arguments.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = arguments.map { $0.map { UnsafePointer($0) } }
        code = pointers.withUnsafeMutableBufferPointer {
            create(context, $0.baseAddress, Int32($0.count), &base)
        }
        guard code == SQLITE_OK, let base else { return code == SQLITE_OK ? SQLITE_ERROR : code }
        let instance = Instance(methods: methods, base: base, emitsTrigrams: emitsTrigrams)
        output.pointee = OpaquePointer(Unmanaged.passRetained(instance).toOpaque())
        return SQLITE_OK
    }

    private static let delete: @convention(c) (OpaquePointer?) -> Void = { instance in
        guard let instance else { return }
        Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(instance)).release()
    }

    /// What the relay callback needs: the caller's callback and context, and scratch space.
    private struct Relay {
        var context: UnsafeMutableRawPointer?
        var callback: TokenCallback
        var emitsTrigrams: Bool
        var isQuery: Bool
        var isDocument: Bool
        /// The text unicode61 tokenizes, for the source bytes of each token.
        var source: UnsafePointer<CChar>?
        /// Whether the query asks for accent forms (it started with ``accentMarker``).
        var marksAccents = false
        var anchorsStart = false
        var anchorsEnd = false
        var folded: [UInt8] = []
        var padded: [UInt8] = []
        var starts: [Int] = []
    }

    private static let tokenize:
        @convention(c) (
            OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32,
            TokenCallback?
        ) -> Int32 = { instancePointer, context, flags, text, length, callback in
            guard let instancePointer, let callback else { return SQLITE_MISUSE }
            let instance = Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(instancePointer))
                .takeUnretainedValue()
            var relay = Relay(
                context: context, callback: callback, emitsTrigrams: instance.emitsTrigrams,
                isQuery: flags & FTS5_TOKENIZE_QUERY != 0,
                isDocument: flags & FTS5_TOKENIZE_DOCUMENT != 0)
            var text = text
            var length = length
            if !relay.emitsTrigrams && relay.isQuery, let start = text, length > 0,
                UnsafeRawPointer(start).load(as: UInt8.self) == 0x01
            {
                relay.marksAccents = true
                text = start + 1
                length -= 1
            }
            if relay.emitsTrigrams && relay.isQuery, let start = text, length > 0 {
                let bytes = UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self)
                if bytes[0] == 0x02 {
                    relay.anchorsStart = true
                    text = start + 1
                    length -= 1
                }
                if length > 0 && bytes[Int(length) - 1 + (relay.anchorsStart ? 1 : 0)] == 0x03 {
                    relay.anchorsEnd = true
                    length -= 1
                }
            }
            relay.source = text
            return withUnsafeMutablePointer(to: &relay) { relayPointer in
                instance.methods.xTokenize(
                    instance.base, relayPointer, flags, text, length, relayToken)
            }
        }

    /// Receives each unicode61 token, folds it and passes it (or its trigrams) on, followed in
    /// documents by its accent form when folding changed letters other than case.
    private static let relayToken: TokenCallback = { context, flags, token, length, start, end in
        // unicode61 emits an empty token for an accent on its own (it keeps combining marks
        // in words and removes the Latin accents): not a word.
        guard let context, let token, length > 0 else { return SQLITE_OK }
        let relay = context.assumingMemoryBound(to: Relay.self)
        if relay.pointee.marksAccents {
            return emitAccentForm(relay, flags: flags, start: start, end: end, unlessEqualTo: nil)
        }
        let bytes = UnsafeRawBufferPointer(start: token, count: Int(length))
        let callback = relay.pointee.callback
        let outer = relay.pointee.context
        guard relay.pointee.emitsTrigrams || bytes.contains(where: { $0 >= 0x80 }) else {
            let code = callback(outer, flags, token, length, start, end)
            guard code == SQLITE_OK, relay.pointee.isDocument else { return code }
            return emitAccentForm(
                relay, flags: flags | FTS5_TOKEN_COLOCATED, start: start, end: end,
                unlessEqualTo: bytes)
        }
        relay.pointee.folded.removeAll(keepingCapacity: true)
        LetterFolding.fold(bytes, into: &relay.pointee.folded)
        // Other lone accents fold to nothing: not a word either.
        if relay.pointee.folded.isEmpty { return SQLITE_OK }
        if relay.pointee.emitsTrigrams {
            return emitTrigrams(relay, flags: flags, start: start, end: end)
        }
        let code = relay.pointee.folded.withUnsafeBufferPointer { folded in
            folded.withMemoryRebound(to: CChar.self) {
                callback(outer, flags, $0.baseAddress, Int32($0.count), start, end)
            }
        }
        guard code == SQLITE_OK, relay.pointee.isDocument else { return code }
        let folded = relay.pointee.folded
        return folded.withUnsafeBytes {
            emitAccentForm(
                relay, flags: flags | FTS5_TOKEN_COLOCATED, start: start, end: end,
                unlessEqualTo: $0)
        }
    }

    /// Emits ``accentMarker`` followed by the source text of the token in lowercase, unless
    /// the source is plain ASCII or its lowercase form is `folded` (nothing but case folded).
    private static func emitAccentForm(
        _ relay: UnsafeMutablePointer<Relay>, flags: Int32, start: Int32, end: Int32,
        unlessEqualTo folded: UnsafeRawBufferPointer?
    ) -> Int32 {
        guard let source = relay.pointee.source, start < end else { return SQLITE_OK }
        let bytes = UnsafeRawBufferPointer(start: source + Int(start), count: Int(end - start))
        if folded != nil && !bytes.contains(where: { $0 >= 0x80 }) { return SQLITE_OK }
        var form: [UInt8] = [0x01]
        appendLowercased(bytes, to: &form)
        if let folded, form.dropFirst().elementsEqual(folded) { return SQLITE_OK }
        let callback = relay.pointee.callback
        let outer = relay.pointee.context
        return form.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                callback(outer, flags, $0.baseAddress, Int32($0.count), start, end)
            }
        }
    }

    /// Appends the UTF-8 of `text` lowercased, as `String.lowercased()` gives it: ASCII and
    /// Latin-1 letters (most accented names) a byte at a time, anything else through
    /// `lowercased()` (which cost a twentieth of a 10k import's index fill for every word).
    static func appendLowercased(_ text: UnsafeRawBufferPointer, to output: inout [UInt8]) {
        let start = output.count
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte < 0x80 {
                output.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
                index += 1
            } else if (byte == 0xC2 || byte == 0xC3) && index + 1 < text.count
                && text[index + 1] & 0xC0 == 0x80
            {
                // U+0080...U+00FF: the capitals U+00C0...U+00DE (but U+00D7, ×) are their
                // lowercase letter less 0x20; the rest have no other lowercase form.
                let next = text[index + 1]
                let isCapital = byte == 0xC3 && next <= 0x9E && next != 0x97
                output.append(byte)
                output.append(isCapital ? next + 0x20 : next)
                index += 2
            } else {
                output.removeSubrange(start...)
                output += String(decoding: text, as: UTF8.self).lowercased().utf8
                return
            }
        }
    }

    /// Emits the trigrams of the folded word in `relay` (see ``FoldingTokenizer``).
    private static func emitTrigrams(
        _ relay: UnsafeMutablePointer<Relay>, flags: Int32, start: Int32, end: Int32
    ) -> Int32 {
        let isQuery = relay.pointee.isQuery
        var padded: [UInt8] = []
        swap(&padded, &relay.pointee.padded)
        defer { swap(&padded, &relay.pointee.padded) }
        padded.removeAll(keepingCapacity: true)
        if !isQuery || relay.pointee.anchorsStart { padded.append(0x20) }
        padded += relay.pointee.folded
        if !isQuery {
            padded += [0x20, 0x20]
        } else if relay.pointee.anchorsEnd {
            padded.append(0x20)
        }
        var starts: [Int] = []
        swap(&starts, &relay.pointee.starts)
        defer { swap(&starts, &relay.pointee.starts) }
        starts.removeAll(keepingCapacity: true)
        for (offset, byte) in padded.enumerated() where byte & 0xC0 != 0x80 {
            starts.append(offset)
        }
        let callback = relay.pointee.callback
        let outer = relay.pointee.context
        return padded.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                guard let base = characters.baseAddress else { return SQLITE_OK }
                if starts.count < 3 {
                    return callback(outer, flags, base, Int32(buffer.count), start, end)
                }
                for index in 0..<(starts.count - 2) {
                    let to = index + 3 < starts.count ? starts[index + 3] : buffer.count
                    let code = callback(
                        outer, flags, base + starts[index], Int32(to - starts[index]), start, end)
                    guard code == SQLITE_OK else { return code }
                }
                return SQLITE_OK
            }
        }
    }
}
