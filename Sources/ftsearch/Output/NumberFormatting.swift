import FTSearchKit

/// An integer with thousands separators: `1,250,000`.
struct Grouped: CustomStringConvertible {
    let value: Int

    init(_ value: Int) { self.value = value }

    var description: String {
        let digits = String(value.magnitude)
        var output = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { output += "," }
            output.append(digit)
        }
        return (value < 0 ? "-" : "") + output
    }
}

/// A number of records with their noun: `1 person`, `1,000,000 people`.
struct RecordCount: CustomStringConvertible {
    let count: Int
    let kind: Kind

    init(_ count: Int, _ kind: Kind) {
        self.count = count
        self.kind = kind
    }

    var description: String {
        "\(Grouped(count)) \(count == 1 ? kind.singularNoun : kind.rawValue)"
    }
}

/// A number with a fixed count of decimals: `0.04`.
struct Fixed: CustomStringConvertible {
    let value: Double
    let decimals: Int

    init(_ value: Double, decimals: Int) {
        self.value = value
        self.decimals = decimals
    }

    var description: String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        guard decimals > 0 else { return String(whole) }
        return "\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }
}
