/// Numbers for every hand-written writer: whole numbers as Foundation's `JSONEncoder` writes them
/// (decimal digits, a leading `-` when negative, no `+`, no leading zeros), and the one rule for
/// a `Double` JSON cannot hold.
public enum JSONNumber {
    /// Writes `value`. Its digits go straight to `sink`, without making a string of them first
    /// (`String(value)` showed in the mark-sync server's profile, a few per record).
    @inlinable
    public static func write<Sink: JSONByteSink>(_ value: Int64, to sink: inout Sink) {
        var magnitude = value.magnitude
        // Int64.min has 19 digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { sink.writeJSONByte(UInt8(ascii: "-")) }
            sink.writeJSONBytes(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// `value` as a number JSON can hold: NaN becomes 0 and the infinities the largest finite
    /// values, so no write ever fails or writes what cannot be read back.
    @inlinable
    public static func writable(_ value: Double) -> Double {
        if value.isNaN { return 0 }
        return min(max(value, -.greatestFiniteMagnitude), .greatestFiniteMagnitude)
    }
}
