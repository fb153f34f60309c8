import MeTubeJSON
import NIOCore

extension ByteBuffer: JSONByteSink {
    /// Appends `bytes`.
    @inlinable
    public mutating func writeJSONBytes(_ bytes: UnsafeBufferPointer<UInt8>) { writeBytes(bytes) }

    /// Appends one byte.
    @inlinable
    public mutating func writeJSONByte(_ byte: UInt8) { writeInteger(byte) }

    /// Writes `string` as a JSON string literal, as ``JSONString`` writes it, with `/` as `\/`
    /// when `escapingSlashes` (as `JSONEncoder` writes it).
    mutating func writeJSONString(_ string: String, escapingSlashes: Bool) {
        JSONString.write(string, escapingSlashes: escapingSlashes, to: &self)
    }
}
