import MeTubeCore

/// Splits a child's output into lines without ever holding more than ``maximumLineBytes`` of one:
/// a longer line is dropped (and counted) up to its newline, so a peer printing 100 MB without
/// a newline costs nothing but the count.
public struct BoundedLineReader: Sendable {
    /// The longest line kept unless a reader is given another bound.
    public static let defaultMaximumLineBytes = 8_192

    /// The longest line this reader keeps.
    public let maximumLineBytes: Int

    private var pending: [UInt8] = []
    private var discarding = false
    /// Lines dropped for their length.
    public private(set) var overlongLines = 0

    /// A reader keeping lines of at most `maximumLineBytes`.
    public init(maximumLineBytes: Int = Self.defaultMaximumLineBytes) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Takes `bytes` and returns the complete lines in them, without their newlines.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [Substring] {
        var lines: [Substring] = []
        for byte in bytes {
            if byte == 0x0A {
                if !discarding { lines.append(Substring(String(decoding: pending, as: UTF8.self))) }
                pending.removeAll(keepingCapacity: true)
                discarding = false
            } else if !discarding {
                if pending.count >= maximumLineBytes {
                    pending.removeAll(keepingCapacity: true)
                    discarding = true
                    overlongLines += 1
                } else if byte != 0x0D {
                    pending.append(byte)
                }
            }
        }
        return lines
    }

    /// The last line when the output ended without a newline.
    public mutating func finish() -> Substring? {
        defer { pending.removeAll() }
        return discarding || pending.isEmpty ? nil : Substring(String(decoding: pending, as: UTF8.self))
    }
}
