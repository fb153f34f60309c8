/// Where the hand-written JSON writers put their bytes: a byte array, NIO's `ByteBuffer`, the
/// store's buffered file writer.
public protocol JSONByteSink {
    /// Appends `bytes`.
    mutating func writeJSONBytes(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Appends one byte.
    mutating func writeJSONByte(_ byte: UInt8)
}

/// JSON string literals as Foundation's `JSONEncoder` writes them, for every hand-written writer:
/// quotes, backslashes and control characters escaped (`\b`, `\f`, `\n`, `\r`, `\t`, `\u00xx` in
/// lowercase for the others), other characters as they are, and `/` as `\/` only when asked
/// (`JSONEncoder` without `.withoutEscapingSlashes`).
public enum JSONString {
    /// Writes `string` as a JSON string literal, quotes included. Runs of bytes that need no escape
    /// are written whole.
    @inlinable
    public static func write<Sink: JSONByteSink>(_ string: String, escapingSlashes: Bool = false, to sink: inout Sink) {
        sink.writeJSONByte(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var start = 0
            for index in bytes.indices where needsEscape(bytes[index], escapingSlashes: escapingSlashes) {
                sink.writeJSONBytes(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                writeEscape(of: bytes[index], to: &sink)
                start = index + 1
            }
            sink.writeJSONBytes(UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        sink.writeJSONByte(UInt8(ascii: "\""))
    }

    /// Whether `byte` must be escaped inside a string literal.
    @inlinable
    public static func needsEscape(_ byte: UInt8, escapingSlashes: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapingSlashes && byte == UInt8(ascii: "/"))
    }

    /// Writes the escape sequence of `byte`, one that ``needsEscape(_:escapingSlashes:)`` names.
    @inlinable
    static func writeEscape<Sink: JSONByteSink>(of byte: UInt8, to sink: inout Sink) {
        sink.writeJSONByte(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): sink.writeJSONByte(byte)
        case 0x0A: sink.writeJSONByte(UInt8(ascii: "n"))
        case 0x0D: sink.writeJSONByte(UInt8(ascii: "r"))
        case 0x09: sink.writeJSONByte(UInt8(ascii: "t"))
        case 0x08: sink.writeJSONByte(UInt8(ascii: "b"))
        case 0x0C: sink.writeJSONByte(UInt8(ascii: "f"))
        default:
            sink.writeJSONByte(UInt8(ascii: "u"))
            sink.writeJSONByte(UInt8(ascii: "0"))
            sink.writeJSONByte(UInt8(ascii: "0"))
            sink.writeJSONByte(hexDigit(byte >> 4))
            sink.writeJSONByte(hexDigit(byte & 0xF))
        }
    }

    /// The lowercase hex digit of `nibble` (0…15).
    @inlinable
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}

extension Array: JSONByteSink where Element == UInt8 {
    /// Appends `bytes`.
    @inlinable
    public mutating func writeJSONBytes(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }

    /// Appends one byte.
    @inlinable
    public mutating func writeJSONByte(_ byte: UInt8) { append(byte) }
}
