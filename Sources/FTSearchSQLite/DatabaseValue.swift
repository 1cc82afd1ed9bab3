import CSQLite

/// A value stored in, or bound to, an SQLite column (https://sqlite.org/datatype3.html).
package enum DatabaseValue: Equatable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift type that can be bound to a statement parameter.
package protocol DatabaseValueConvertible {
    var databaseValue: DatabaseValue { get }
}

extension DatabaseValue: DatabaseValueConvertible {
    /// The value itself.
    package var databaseValue: DatabaseValue { self }
}

extension String: DatabaseValueConvertible {
    /// The string as text.
    package var databaseValue: DatabaseValue { .text(self) }
}

extension Substring: DatabaseValueConvertible {
    /// The substring as text.
    package var databaseValue: DatabaseValue { .text(String(self)) }
}

extension [UInt8]: DatabaseValueConvertible {
    /// The bytes as a blob.
    package var databaseValue: DatabaseValue { .blob(self) }
}

extension Int: DatabaseValueConvertible {
    /// The integer.
    package var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int64: DatabaseValueConvertible {
    /// The integer.
    package var databaseValue: DatabaseValue { .integer(self) }
}

extension Double: DatabaseValueConvertible {
    /// The double as a real number.
    package var databaseValue: DatabaseValue { .real(self) }
}

extension Bool: DatabaseValueConvertible {
    /// `1` for true, `0` for false (SQLite has no boolean type).
    package var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
}

/// The values bound to a statement's parameters, in order: `[name, 42, nil]`.
package typealias StatementArguments = [(any DatabaseValueConvertible)?]
