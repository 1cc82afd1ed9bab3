import FTSearchKit
import Hummingbird

/// The parameters of a request's query string, decoded strictly: `+` and `%XX` as forms encode
/// them, the result valid UTF-8, each name at most once and known to the route. Anything else
/// is a 400 that names the problem, as the command line names an unknown option.
struct QueryParameters {
    private var values: [String: String] = [:]

    /// Decodes the query of `request`, allowing only `names`.
    init(_ request: Request, allowing names: Set<String>, maximumSize: Int) throws(APIError) {
        guard let query = request.uri.query, !query.isEmpty else { return }
        guard query.utf8.count <= maximumSize else {
            throw APIError(
                .uriTooLong, code: "too_large",
                "the query string is longer than \(maximumSize) bytes")
        }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0])
            let value = parts.count > 1 ? try Self.decode(parts[1]) : ""
            guard names.contains(name) else {
                let known = names.sorted().joined(separator: ", ")
                throw .badRequest(
                    "unknown parameter '\(name)'" + (names.isEmpty ? "" : " (known: \(known))"))
            }
            guard values[name] == nil else {
                throw .badRequest("parameter '\(name)' is given more than once")
            }
            values[name] = value
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// The text of `name`, or `defaultValue` when it is absent.
    func string(_ name: String, default defaultValue: String) -> String {
        values[name] ?? defaultValue
    }

    /// The integer `name` in `range`, or `defaultValue` when it is absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>)
        throws(APIError) -> Int
    {
        guard let text = values[name] else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw .badRequest(
                "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
            )
        }
        return value
    }

    /// The value of `name` as one of `T`'s cases, or `defaultValue` when it is absent.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, default defaultValue: T)
        throws(APIError) -> T where T.RawValue == String
    {
        guard let text = values[name] else { return defaultValue }
        guard let value = T(rawValue: text) else {
            let choices = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badRequest("\(name) must be one of \(choices), not '\(text)'")
        }
        return value
    }

    /// The kinds the parameter `name` names (`people`, `animals` or `all`), or `defaultValue`.
    func kinds(_ name: String, default defaultValue: Set<Kind>) throws(APIError) -> Set<Kind> {
        guard let text = values[name] else { return defaultValue }
        guard let kinds = Set<Kind>(name: text) else {
            throw .badRequest("\(name) must be one of people, animals, all, not '\(text)'")
        }
        return kinds
    }

    /// Decodes `+` and `%XX`; text that is not percent-encoded UTF-8 is a 400.
    static func decode(_ text: Substring) throws(APIError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue),
                    let low = iterator.next().flatMap(hexValue)
                else { throw .badRequest("the query string has a malformed %-escape") }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .badRequest("the query string is not UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
