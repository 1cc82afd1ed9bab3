import FTSearchKit
import Synchronization
import HTTPTypes

/// How many bytes of JSON one request's answer may hold (docs/reliability.md: Limits): each
/// part of an answer (a hit, a document) is charged as it is built, so that a request asking
/// for more (thousands of queries, highlights of huge fields, every document at once) fails
/// with 413 before the server's memory grows, not after.
///
/// ```swift
/// let budget = AnswerBudget(bytes: 16 << 20)
/// for hit in hits { try budget.charge(json(of: hit)) }  // 413 past 16 MiB
/// ```
final class AnswerBudget: Sendable {
    let limit: Int
    private let spent = Mutex(0)

    init(bytes limit: Int) {
        self.limit = limit
    }

    /// Counts `value`'s encoded size against the budget.
    ///
    /// - Throws: 413 `answer_too_large` once the answer would exceed the budget.
    func charge(_ value: JSONValue) throws(APIError) {
        try charge(bytes: Self.size(of: value))
    }

    func charge(bytes: Int) throws(APIError) {
        let total = spent.withLock { spent in
            spent += bytes
            return spent
        }
        guard total <= limit else {
            throw APIError(
                .contentTooLarge, code: "answer_too_large",
                "the answer would be larger than \(limit >> 20) MiB: ask for fewer results, "
                    + "fewer queries or fewer highlighted fields")
        }
    }

    /// The bytes `value` takes as JSON, escapes aside (which only a string of control
    /// characters multiplies).
    static func size(of value: JSONValue) -> Int {
        switch value {
        case .null: 4
        case .bool(let value): value ? 4 : 5
        case .number(let text): text.utf8.count
        case .string(let text): text.utf8.count + 2
        case .array(let elements): elements.reduce(2) { $0 + size(of: $1) + 1 }
        case .object(let members):
            members.reduce(2) { $0 + $1.key.utf8.count + 4 + size(of: $1.value) }
        }
    }
}
