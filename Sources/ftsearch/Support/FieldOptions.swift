import ArgumentParser
import FTSearchKit

/// `--fields first_name,company`: the fields to match in, comma-separated.
struct FieldList: ExpressibleByArgument {
    let names: [String]

    init?(argument: String) {
        let names = argument.split(separator: ",").map(\.trimmed)
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else { return nil }
        self.names = names
    }
}

/// `--weights first_name=10,company=4`: bm25 weights by field, comma-separated.
struct FieldWeights: ExpressibleByArgument {
    let weights: [String: Double]

    init?(argument: String) {
        var weights: [String: Double] = [:]
        for pair in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2,
                let weight = Double(parts[1].trimmed)
            else { return nil }
            let field = parts[0].trimmed
            guard !field.isEmpty else { return nil }
            weights[field] = weight
        }
        self.weights = weights
    }
}

extension Substring {
    /// The text without leading and trailing white space.
    fileprivate var trimmed: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
