@testable import FTSearchFormats
import Foundation

@testable import FTSearchEngine
@testable import FTSearchKit

/// The third-party conformance suites copied into `Tests/FTSearchKitTests/Resources` (see the
/// README there), found next to this source file rather than through a bundle.
enum ConformanceSuite {
    /// `.../Tests/FTSearchKitTests/Resources`.
    static let resources: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(2)  // this file's name, and Import/
        return components.joined(separator: "/") + "/Resources"
    }()

    /// The names of the files in `folder` (relative to the resources) that start with `prefix`
    /// and end with `suffix`, sorted.
    static func fileNames(in folder: String, prefix: String = "", suffix: String) -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: "\(resources)/\(folder)")) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.sorted()
    }

    /// The bytes of a file (relative to the resources).
    static func contents(of path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: "\(resources)/\(path)") else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        return [UInt8](data)
    }
}

/// A JSON value as both Foundation's `JSONSerialization` and ``JSONValue`` can be reduced to, so
/// the two can be compared: numbers by value, strings by Unicode scalars (not by canonical
/// equivalence), objects as dictionaries where the last of duplicate keys wins (as in
/// Foundation).
///
/// Numbers are equal when they differ by at most one part in 10^12: swift-corelibs-foundation
/// rounds some long literals imprecisely (it reads `-0.000…0001` with 78 zeros as
/// `-1.0000000000000005e-78`, where Swift's `Double("...")` gives the correctly rounded `-1e-78`).
indirect enum ComparableJSON: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string([Unicode.Scalar])
    case array([ComparableJSON])
    case object([[Unicode.Scalar]: ComparableJSON])

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let literal): self = .number(Double(literal) ?? .nan)
        case .string(let text): self = .string(Array(text.unicodeScalars))
        case .array(let elements): self = .array(elements.map(ComparableJSON.init))
        case .object(let members):
            var dictionary: [[Unicode.Scalar]: ComparableJSON] = [:]
            for member in members {
                dictionary[Array(member.key.unicodeScalars)] = ComparableJSON(member.value)
            }
            self = .object(dictionary)
        }
    }

    /// Reduces what `JSONSerialization` returns. Booleans are the `NSNumber`s whose type is
    /// `char` (`c`), which no JSON number becomes.
    init?(foundation value: Any) {
        switch value {
        case is NSNull: self = .null
        case let number as NSNumber:
            self =
                String(cString: number.objCType) == "c"
                ? .bool(number.boolValue) : .number(number.doubleValue)
        case let text as String: self = .string(Array(text.unicodeScalars))
        case let elements as [Any]:
            var reduced: [ComparableJSON] = []
            for element in elements {
                guard let item = ComparableJSON(foundation: element) else { return nil }
                reduced.append(item)
            }
            self = .array(reduced)
        case let dictionary as [String: Any]:
            var reduced: [[Unicode.Scalar]: ComparableJSON] = [:]
            for (key, member) in dictionary {
                guard let item = ComparableJSON(foundation: member) else { return nil }
                reduced[Array(key.unicodeScalars)] = item
            }
            self = .object(reduced)
        default: return nil
        }
    }

    static func == (left: ComparableJSON, right: ComparableJSON) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b || abs(a - b) <= 1e-12 * max(abs(a), abs(b))
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    /// Parses `bytes` with `JSONSerialization` (fragments allowed).
    static func parsedByFoundation(_ bytes: [UInt8]) throws -> ComparableJSON? {
        ComparableJSON(
            foundation: try JSONSerialization.jsonObject(
                with: Data(bytes), options: .fragmentsAllowed))
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .number(let number): "\(number)"
        case .string(let scalars): "\"\(String(String.UnicodeScalarView(scalars)))\""
        case .array(let elements): "[\(elements.map(\.description).joined(separator: ", "))]"
        case .object(let members):
            "{\(members.map { "\"\(String(String.UnicodeScalarView($0.key)))\": \($0.value)" }.sorted().joined(separator: ", "))}"
        }
    }
}
