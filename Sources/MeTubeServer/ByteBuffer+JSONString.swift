import NIOCore

extension ByteBuffer {
    /// Writes `string` as a JSON string literal: quotes, backslashes and control characters
    /// escaped (`\b`, `\f`, `\n`, `\r`, `\t`, `\u00xx` in lowercase for the others), non-ASCII
    /// characters as they are, and `/` as `\/` when `escapingSlashes` (as `JSONEncoder` writes it).
    mutating func writeJSONString(_ string: String, escapingSlashes: Bool) {
        writeInteger(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated()
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapingSlashes && byte == UInt8(ascii: "/")) {
                writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<index]))
                switch byte {
                case UInt8(ascii: "\""): writeStaticString("\\\"")
                case UInt8(ascii: "\\"): writeStaticString("\\\\")
                case UInt8(ascii: "/"): writeStaticString("\\/")
                case 0x0A: writeStaticString("\\n")
                case 0x0D: writeStaticString("\\r")
                case 0x09: writeStaticString("\\t")
                case 0x08: writeStaticString("\\b")
                case 0x0C: writeStaticString("\\f")
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    writeStaticString("\\u00")
                    writeInteger(hex[Int(byte >> 4)])
                    writeInteger(hex[Int(byte & 0xF)])
                }
                start = index + 1
            }
            writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start...]))
        }
        writeInteger(UInt8(ascii: "\""))
    }
}
