import FTSearchSQLite

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
///
/// The markers are the control characters U+0001 to U+0006. In a record's text a control
/// character separates words (unicode61 takes no character of category Cc into a token), and a
/// query (``NameVariants/normalizedQuery(_:)``), a suggestion prefix and the records' words a
/// suggestion is spelled from are read through ``separatingControls(_:)`` before they are
/// tokenized as queries, so that only the phrases a search builds start with a marker.
package enum FoldingTokenizer {
    package static let name = "ftsearch"
    static let trigramName = "ftsearch_trigram"
    /// Starts an accent form: in the word index, a word written with letters that folding
    /// changes (`Müller`, `Straße`, `Søren`) also gets, at the same position, its lowercase
    /// form with those letters kept after this marker (`\u{1}müller`); query text starting
    /// with it is tokenized into such forms (U+0001, never part of a token). Ranking uses them
    /// to put records with the accents typed above those matching only after folding.
    static let accentMarker: Character = "\u{1}"
    /// Start variant forms: in the word index, a word that has other spellings (see
    /// ``NameVariants``: `Müller`, `Иванов`, `الحارثي`) also gets, at the same position, each of
    /// them after one of these markers (`\u{4}mueller`, `\u{4}ivanov`, `\u{4}حارثي`;
    /// `Παπαδημητρίου` is `\u{4}papademetriou` and `\u{5}papadimitriou`, see
    /// ``NameVariants/markers(of:)``), so that a prefix phrase of three letters or more hits a
    /// word once, as FTS5 counts it and as the doclist ranking counts it. Query text
    /// starting with a marker is tokenized into such forms of its folded tokens (U+0004, U+0005,
    /// U+0006, never part of a token).
    static let variantMarkers: [Character] = ["\u{4}", "\u{5}", "\u{6}"]
    /// Anchors a trigram query at the start of a word (U+0002, never part of a token).
    static let wordStartMarker: Character = "\u{2}"
    /// Anchors a trigram query at the end of a word (U+0003, never part of a token).
    static let wordEndMarker: Character = "\u{3}"

    /// The wrapped unicode61's options: case and Latin accents folded, and combining marks
    /// (categories M*) kept inside words rather than splitting them, so that Devanagari,
    /// Thai or Arabic words with vowel signs stay whole and decomposed accents reach
    /// ``LetterFolding``, which removes them.
    /// The apostrophes `'` `’` `‘` and `ʼ` (U+02BC, a letter to Unicode) all separate words,
    /// so that `Дем'янюк` and `Демʼянюк` are the same two tokens.
    static let unicode61Arguments = [
        "remove_diacritics", "2", "categories", "L* N* Co M*", "separators", "\u{2BC}",
    ]

    /// `text` with each C0 control character (U+0000 to U+001F) a space: how a query, a
    /// suggestion prefix and the text `foldedWords(in:)` is given are read before they are
    /// tokenized. (History keys and filter values are folded as they always were: what they
    /// store must not change, and they are never index terms.)
    ///
    /// A control character is no part of a word in a record (unicode61 separates words there,
    /// as Meilisearch's tokenizer does: Unicode's word boundaries break around it and its
    /// normalizer drops it), and U+0001 to U+0006 starting a query's text would ask for the
    /// index's marked forms (``accentMarker``, ``variantMarkers``). As a space, each separates
    /// words in a query as in a record: `ann\u{1}smith` is `ann` and `smith`, `\u{1}42` is `42`.
    /// Dropping them would join words a record's text keeps apart. The UTF-8 length, and so
    /// every token's source range, is the text's own.
    package static func separatingControls(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 }) else { return text }
        return String(decoding: text.utf8.map { $0 < 0x20 ? 0x20 : $0 }, as: UTF8.self)
    }

    /// Registers both tokenizers on `database` (see
    /// ``FTSearchSQLite/Database/registerSearchExtensions()``).
    static func register(on database: Database) throws(SQLiteError) {
        for (name, emitsTrigrams) in [(name, false), (trigramName, true)] {
            try database.registerTokenizer(
                named: name, wrapping: "unicode61", arguments: unicode61Arguments
            ) { Instance(emitsTrigrams: emitsTrigrams) }
        }
    }

    /// One table's tokenizer: what it emits.
    private final class Instance: FTS5WrapperTokenizer {
        let emitsTrigrams: Bool
        /// The relay of the text being tokenized, kept from one text to the next so that its
        /// scratch arrays keep their room and the token closure captures only this instance
        /// (a relay made per text was boxed on the heap, with the closure's context, for each
        /// of an import's fields). FTS5 tokenizes one text at a time with an instance: a table's,
        /// on one connection. `@exclusivity(unchecked)`: reached once a token.
        @exclusivity(unchecked) private var relay: Relay

        init(emitsTrigrams: Bool) {
            self.emitsTrigrams = emitsTrigrams
            relay = Relay(
                sink: FTS5TokenSink.none, emitsTrigrams: emitsTrigrams, isQuery: false,
                isDocument: false)
        }

        func tokenize(
            _ text: UnsafeRawBufferPointer, flags: FTS5TokenizeFlags,
            wrapped: FTS5WrappedTokenizer, into sink: FTS5TokenSink
        ) -> Int32 {
            relay.start(
                sink: sink, isQuery: flags.contains(.query), isDocument: flags.contains(.document))
            var text = text
            if !relay.emitsTrigrams && relay.isQuery, text.first == 0x01 {
                relay.marksAccents = true
                text = UnsafeRawBufferPointer(rebasing: text.dropFirst())
            } else if !relay.emitsTrigrams && relay.isQuery, let first = text.first,
                (0x04...0x06).contains(first)
            {
                relay.variantMarker = first
                text = UnsafeRawBufferPointer(rebasing: text.dropFirst())
            }
            if relay.emitsTrigrams && relay.isQuery, !text.isEmpty {
                if text.first == 0x02 {
                    relay.anchorsStart = true
                    text = UnsafeRawBufferPointer(rebasing: text.dropFirst())
                }
                if text.last == 0x03 {
                    relay.anchorsEnd = true
                    text = UnsafeRawBufferPointer(rebasing: text.dropLast())
                }
            }
            relay.source = text.baseAddress
            return wrapped.tokenize(
                text, flags: flags, context: Unmanaged.passUnretained(self).toOpaque(),
                callback: Self.receive)
        }

        /// Takes each of the wrapped tokenizer's tokens to the relay of the instance that
        /// `context` is (FTS5's callback, with no closure to allocate per text).
        private static let receive: FTS5TokenSink.Callback = {
            context, flags, token, length, start, end in
            guard let context else { return SQLiteResultCode.misuse.rawValue }
            let instance = Unmanaged<Instance>.fromOpaque(context).takeUnretainedValue()
            return FoldingTokenizer.relay(
                UnsafeRawBufferPointer(start: token, count: token == nil ? 0 : Int(length)),
                flags: FTS5TokenFlags(rawValue: flags), start: start, end: end, &instance.relay)
        }
    }

    /// What the relay of one text's tokens needs: the sink, and scratch space.
    private struct Relay {
        var sink: FTS5TokenSink
        var emitsTrigrams: Bool
        var isQuery: Bool
        var isDocument: Bool
        /// The text unicode61 tokenizes, for the source bytes of each token.
        var source: UnsafeRawPointer?
        /// Whether the query asks for accent forms (it started with ``accentMarker``).
        var marksAccents = false
        /// The variant marker the query started with, if any (see ``variantMarkers``).
        var variantMarker: UInt8?
        var anchorsStart = false
        var anchorsEnd = false
        var folded: [UInt8] = []
        var padded: [UInt8] = []
        var starts: [Int] = []
        /// A token's accent form: ``accentMarker`` and its lowercase source.
        var form: [UInt8] = []

        /// Starts the relay of another text to `sink`: what the text's flags and markers set is
        /// set again; the scratch arrays keep their room.
        mutating func start(sink: FTS5TokenSink, isQuery: Bool, isDocument: Bool) {
            self.sink = sink
            self.isQuery = isQuery
            self.isDocument = isDocument
            source = nil
            marksAccents = false
            variantMarker = nil
            anchorsStart = false
            anchorsEnd = false
        }
    }

    /// Receives each unicode61 token, folds it and passes it (or its trigrams) on, followed in
    /// documents by its accent form when folding changed letters other than case.
    private static func relay(
        _ bytes: UnsafeRawBufferPointer, flags: FTS5TokenFlags, start: Int32, end: Int32,
        _ relay: inout Relay
    ) -> Int32 {
        let ok = SQLiteResultCode.ok.rawValue
        // unicode61 emits an empty token for an accent on its own (it keeps combining marks
        // in words and removes the Latin accents): not a word.
        guard !bytes.isEmpty else { return ok }
        if relay.marksAccents {
            return emitAccentForm(&relay, flags: flags, start: start, end: end, unlessEqualTo: nil)
        }
        guard
            relay.emitsTrigrams || relay.variantMarker != nil
                || bytes.contains(where: { $0 >= 0x80 })
        else {
            let code = relay.sink.emit(bytes, flags: flags, start: start, end: end)
            guard code == ok, relay.isDocument else { return code }
            return emitOtherForms(&relay, flags: flags, start: start, end: end, folded: bytes)
        }
        relay.folded.removeAll(keepingCapacity: true)
        LetterFolding.fold(bytes, into: &relay.folded)
        // Other lone accents fold to nothing: not a word either.
        if relay.folded.isEmpty { return ok }
        if relay.emitsTrigrams {
            return emitTrigrams(&relay, flags: flags, start: start, end: end)
        }
        if let marker = relay.variantMarker { relay.folded.insert(marker, at: 0) }
        let sink = relay.sink
        let code = relay.folded.withUnsafeBytes {
            sink.emit($0, flags: flags, start: start, end: end)
        }
        guard code == ok, relay.isDocument else { return code }
        let folded = relay.folded
        return folded.withUnsafeBytes {
            emitOtherForms(&relay, flags: flags, start: start, end: end, folded: $0)
        }
    }

    /// Emits, at the position of a document's word folded to `folded`, its accent form and its
    /// variant forms (see ``NameVariants``), both made from the word's lowercase source, which
    /// is lowercased once into the relay's scratch space.
    private static func emitOtherForms(
        _ relay: inout Relay, flags: FTS5TokenFlags, start: Int32, end: Int32,
        folded: UnsafeRawBufferPointer
    ) -> Int32 {
        let flags = flags.union(.colocated)
        let code = emitAccentForm(
            &relay, flags: flags, start: start, end: end, unlessEqualTo: folded)
        // The accent form left the lowercase source in `relay.form`, after its marker; an
        // ASCII word has neither form.
        guard code == SQLiteResultCode.ok.rawValue, relay.form.count > 1 else { return code }
        let variants = NameVariants.variants(
            ofLowercased: Array(relay.form.dropFirst()), folded: Array(folded))
        for (marker, variant) in zip(NameVariants.markers(of: variants), variants.prefix(3)) {
            let form = [marker] + variant
            let code = form.withUnsafeBytes {
                relay.sink.emit($0, flags: flags, start: start, end: end)
            }
            guard code == SQLiteResultCode.ok.rawValue else { return code }
        }
        return code
    }

    /// Emits ``accentMarker`` followed by the source text of the token in lowercase, unless
    /// the source is plain ASCII or its lowercase form is `folded` (nothing but case folded).
    /// Leaves the marker and the lowercase source in `relay.form` (only the marker for ASCII).
    private static func emitAccentForm(
        _ relay: inout Relay, flags: FTS5TokenFlags, start: Int32, end: Int32,
        unlessEqualTo folded: UnsafeRawBufferPointer?
    ) -> Int32 {
        let ok = SQLiteResultCode.ok.rawValue
        relay.form.removeAll(keepingCapacity: true)
        relay.form.append(0x01)
        guard let source = relay.source, start < end else { return ok }
        let bytes = UnsafeRawBufferPointer(start: source + Int(start), count: Int(end - start))
        if folded != nil && !bytes.contains(where: { $0 >= 0x80 }) { return ok }
        appendLowercased(bytes, to: &relay.form)
        if let folded, relay.form.dropFirst().elementsEqual(folded) { return ok }
        let sink = relay.sink
        return relay.form.withUnsafeBytes { sink.emit($0, flags: flags, start: start, end: end) }
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
                appendNormalized(String(decoding: text, as: UTF8.self).lowercased(), to: &output)
                return
            }
        }
    }

    /// Appends `lowercased` with the letters that differ only in form made one: the final
    /// sigma `ς` is `σ`, a full-width letter or digit is the ASCII one (`ｍ` is `m`), so that
    /// `ΠΑΠΑΔΌΠΟΥΛΟΣ` and `Ｍüller` have the accent forms of `παπαδόπουλος` and `Müller`.
    private static func appendNormalized(_ lowercased: String, to output: inout [UInt8]) {
        for scalar in lowercased.unicodeScalars {
            switch scalar.value {
            case 0x3C2: output += [0xCF, 0x83]
            case 0xFF01...0xFF5E: output.append(UInt8(scalar.value - 0xFEE0))
            default: output += UTF8.encode(scalar)!
            }
        }
    }

    /// Emits the trigrams of the folded word in `relay` (see ``FoldingTokenizer``).
    private static func emitTrigrams(
        _ relay: inout Relay, flags: FTS5TokenFlags, start: Int32, end: Int32
    ) -> Int32 {
        let isQuery = relay.isQuery
        var padded: [UInt8] = []
        swap(&padded, &relay.padded)
        defer { swap(&padded, &relay.padded) }
        padded.removeAll(keepingCapacity: true)
        if !isQuery || relay.anchorsStart { padded.append(0x20) }
        padded += relay.folded
        if !isQuery {
            padded += [0x20, 0x20]
        } else if relay.anchorsEnd {
            padded.append(0x20)
        }
        var starts: [Int] = []
        swap(&starts, &relay.starts)
        defer { swap(&starts, &relay.starts) }
        starts.removeAll(keepingCapacity: true)
        for (offset, byte) in padded.enumerated() where byte & 0xC0 != 0x80 {
            starts.append(offset)
        }
        let sink = relay.sink
        let ok = SQLiteResultCode.ok.rawValue
        return padded.withUnsafeBytes { buffer in
            if starts.count < 3 {
                return sink.emit(buffer, flags: flags, start: start, end: end)
            }
            for index in 0..<(starts.count - 2) {
                let to = index + 3 < starts.count ? starts[index + 3] : buffer.count
                let code = sink.emit(
                    UnsafeRawBufferPointer(rebasing: buffer[starts[index]..<to]), flags: flags,
                    start: start, end: end)
                guard code == ok else { return code }
            }
            return ok
        }
    }
}
