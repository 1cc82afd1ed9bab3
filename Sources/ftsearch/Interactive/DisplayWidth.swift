/// How many terminal columns text takes: 2 for East Asian wide and fullwidth characters and
/// emoji, 1 for the rest (a character with combining marks included), as terminals lay out
/// text after `wcwidth(3)`.
extension Character {
    var displayWidth: Int {
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        if Self.isWide(first) || scalars.contains(where: Self.showsAsEmoji) { return 2 }
        return 1
    }

    private static func showsAsEmoji(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0xFE0F || scalar.properties.isEmojiPresentation
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks of Unicode's EastAsianWidth.txt.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18CFF, 0x1B000...0x1B2FF,
            0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}

extension StringProtocol {
    /// The columns the text takes on a terminal (see ``Swift/Character/displayWidth``).
    var displayWidth: Int {
        reduce(0) { $0 + $1.displayWidth }
    }
}
