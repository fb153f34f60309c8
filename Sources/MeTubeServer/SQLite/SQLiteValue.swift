/// A value that can be bound to a statement parameter or read from a result column.
public enum SQLiteValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A double-precision float.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral,
    ExpressibleByFloatLiteral
{
    /// Creates an integer value from a literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// Creates a text value from a literal.
    public init(stringLiteral value: String) { self = .text(value) }
    /// Creates `NULL` from `nil`.
    public init(nilLiteral: ()) { self = .null }
    /// Creates a real value from a literal.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLiteValue {
    /// Text, or `NULL` when `value` is nil.
    public static func nullable(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    /// An integer, or `NULL` when `value` is nil.
    public static func nullable(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
}
