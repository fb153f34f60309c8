/// The nesting depth of a JSON text, measured before any decoder sees it.
///
/// Foundation's decoders, and decoders of recursive values such as `JSONValue` and `MarkSyncValue`,
/// spend time that grows much faster than the body with each level of nesting (a 1 KB body
/// nested 500 deep took 1.2 s of CPU). One linear pass over the bytes, counting brackets outside
/// strings, refuses such a body first.
public enum JSONNesting {
    /// The deepest nesting a request body may have; metube's requests need 6.
    public static let maxDepth = 32

    /// Whether `bytes` nest arrays and objects deeper than `maxDepth`. The text need not be valid
    /// JSON: the decoder judges that afterwards.
    ///
    /// Inlinable, and the scan itself runs over the bytes in memory: called from another module
    /// with a generic sequence (NIO's `ByteBufferView`, `Data`), the unspecialized loop fetched
    /// each byte through witness tables and took over a third of the server's CPU on
    /// `records/modify`.
    @inlinable
    public static func exceedsLimit(_ bytes: some Sequence<UInt8>, maxDepth: Int = maxDepth) -> Bool {
        if let exceeds = bytes.withContiguousStorageIfAvailable({ exceedsLimit(contiguous: $0, maxDepth: maxDepth) }) { return exceeds }
        return Array(bytes).withUnsafeBufferPointer { exceedsLimit(contiguous: $0, maxDepth: maxDepth) }
    }

    /// ``exceedsLimit(_:maxDepth:)`` over bytes in memory.
    @usableFromInline
    static func exceedsLimit(contiguous bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > maxDepth { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            default:
                break
            }
        }
        return false
    }
}
