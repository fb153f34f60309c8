/// Splits a child's output into lines without ever holding more than ``maximumLineBytes`` of one:
/// a longer line is dropped (and counted) up to its newline, so a peer printing 100 MB without
/// a newline costs nothing but the count.
struct BoundedLineReader {
    /// The longest line kept.
    static let maximumLineBytes = 8_192

    private var pending: [UInt8] = []
    private var discarding = false
    /// Lines dropped for their length.
    private(set) var overlongLines = 0

    /// Takes `bytes` and returns the complete lines in them, without their newlines.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> [Substring] {
        var lines: [Substring] = []
        for byte in bytes {
            if byte == 0x0A {
                if !discarding { lines.append(Substring(String(decoding: pending, as: UTF8.self))) }
                pending.removeAll(keepingCapacity: true)
                discarding = false
            } else if !discarding {
                if pending.count >= Self.maximumLineBytes {
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
    mutating func finish() -> Substring? {
        defer { pending.removeAll() }
        return discarding || pending.isEmpty ? nil : Substring(String(decoding: pending, as: UTF8.self))
    }
}
