/// Random identifiers for error uuids and server-assigned record names.
public enum MarkSyncIdentifier {
    /// A random 128-bit identifier as 32 lowercase hex digits.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
