/// Turns the bytes a terminal in raw mode sends into ``Key``s.
///
/// Understands UTF-8 text (a character split across two reads included), control keys, the
/// CSI and SS3 escape sequences of xterm-like terminals for arrows, Home, End, Delete, PgUp
/// and PgDn, and bracketed paste (`ESC [200~ … ESC [201~`), whose text arrives as one
/// ``Key/text(_:)`` with line breaks and tabs as spaces, so a paste never presses Enter.
///
/// A lone ESC byte is either the Escape key or the start of a sequence whose rest is still on
/// its way: the decoder keeps it (``isAwaitingMore``) until more bytes come, or until the
/// caller decides none will and calls ``flush()``.
struct KeyDecoder {
    private var pending: [UInt8] = []
    private var pasted: [UInt8]?

    private static let escape: UInt8 = 0x1B
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// Whether bytes are held back that may turn out to be the Escape key: the caller should
    /// ``flush()`` when nothing more comes soon. Never during a paste, which waits for its end.
    var isAwaitingMore: Bool { pasted == nil && !pending.isEmpty }

    /// The keys that `bytes`, after whatever was held back, complete.
    mutating func keys(from bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var text: [UInt8] = []
        func flushText() {
            if !text.isEmpty { keys.append(.text(String(decoding: text, as: UTF8.self))) }
            text.removeAll()
        }
        var position = 0
        decoding: while position < pending.count {
            if pasted != nil {
                guard let end = pasteEnd(from: position) else {
                    // Keep what could be the start of the end marker for the next read.
                    let kept = max(position, pending.count - (Self.pasteEnd.count - 1))
                    pasted! += pending[position..<kept]
                    position = kept
                    break
                }
                pasted! += pending[position..<end]
                flushText()
                keys.append(.text(Self.pastedText(pasted!)))
                pasted = nil
                position = end + Self.pasteEnd.count
                continue
            }
            let byte = pending[position]
            switch byte {
            case Self.escape:
                guard let (key, length) = escapeSequence(at: position) else { break decoding }
                flushText()
                if let key { keys.append(key) }
                position += length
            case 0x00..<0x20, 0x7F:
                flushText()
                if let key = Self.controlKey(byte) { keys.append(key) }
                position += 1
            default:
                let length = Self.utf8Length(leadingByte: byte)
                guard length > 0 else {
                    position += 1  // not a character's first byte: skipped
                    continue
                }
                guard position + length <= pending.count else { break decoding }
                text += pending[position..<position + length]
                position += length
            }
        }
        flushText()
        pending.removeFirst(position)
        return keys
    }

    /// The keys the held-back bytes stand for when nothing more follows: a lone ESC is the
    /// Escape key; the start of a sequence or of a character that never finished is dropped.
    mutating func flush() -> [Key] {
        guard pasted == nil else { return [] }
        defer { pending.removeAll() }
        return pending.first == Self.escape ? [.escape] : []
    }

    /// The key of the escape sequence at `start` (nil for one this decoder ignores) and its
    /// length in bytes; nil when the sequence is not complete yet.
    private mutating func escapeSequence(at start: Int) -> (key: Key?, length: Int)? {
        guard start + 1 < pending.count else { return nil }
        switch pending[start + 1] {
        case UInt8(ascii: "["):
            // CSI: parameter bytes 0x30–0x3F, intermediates 0x20–0x2F, one final 0x40–0x7E.
            var end = start + 2
            while end < pending.count, !(0x40...0x7E).contains(pending[end]) {
                guard (0x20...0x3F).contains(pending[end]) else { return (nil, end - start) }
                end += 1
            }
            guard end < pending.count else { return nil }
            let parameters = String(decoding: pending[(start + 2)..<end], as: UTF8.self)
            let key = csiKey(final: pending[end], parameters: parameters)
            return (key, end - start + 1)
        case UInt8(ascii: "O"):
            guard start + 2 < pending.count else { return nil }
            return (Self.cursorKey(final: pending[start + 2]), 3)
        default:
            // ESC and another key (Alt-key): taken as Escape, the other key read on its own.
            return (.escape, 1)
        }
    }

    private mutating func csiKey(final: UInt8, parameters: String) -> Key? {
        guard final == UInt8(ascii: "~") else { return Self.cursorKey(final: final) }
        switch parameters.split(separator: ";").first {
        case "1", "7": return .home
        case "4", "8": return .end
        case "3": return .delete
        case "5": return .pageUp
        case "6": return .pageDown
        case "200":
            pasted = []
            return nil
        default: return nil
        }
    }

    /// The key of the final byte of `ESC [ A` or `ESC O A` and their kin.
    private static func cursorKey(final: UInt8) -> Key? {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }

    private static func controlKey(_ byte: UInt8) -> Key? {
        switch byte {
        case 0x0D, 0x0A: .enter
        case 0x09: .tab
        case 0x7F, 0x08: .backspace
        case 0x01...0x1A: .control(Character(Unicode.Scalar(byte + 0x60)))
        default: nil
        }
    }

    /// The length of the UTF-8 sequence `byte` starts, or 0 for a byte no character starts with.
    private static func utf8Length(leadingByte byte: UInt8) -> Int {
        switch byte {
        case 0x20..<0x80: 1
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
    }

    private func pasteEnd(from start: Int) -> Int? {
        guard pending.count - start >= Self.pasteEnd.count else { return nil }
        return (start...(pending.count - Self.pasteEnd.count)).first {
            pending[$0..<($0 + Self.pasteEnd.count)].elementsEqual(Self.pasteEnd)
        }
    }

    /// Pasted bytes as one line: line breaks and tabs become spaces, other controls go.
    private static func pastedText(_ bytes: [UInt8]) -> String {
        String(
            decoding: bytes.compactMap { byte in
                switch byte {
                case 0x09, 0x0A, 0x0D: UInt8(ascii: " ")
                case 0x00..<0x20, 0x7F: nil
                default: byte
                }
            }, as: UTF8.self)
    }
}
