/// A count held in a small unsigned integer as a tiny floating-point number: a 5-bit exponent and
/// the rest mantissa. Counts below 2^(width - 5) are exact (2,047 for 16 bits, 134 million for
/// 32); larger ones keep their top (width - 5) bits, within 0.1 % for 16 bits, which is plenty
/// for "1.2 B views". All ones stands for "unknown".
///
/// Reading a count back and storing it again gives the same bits, so whatever the store writes
/// reads back unchanged.
struct CompactCount<Bits: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable, Hashable {
    private var bits: Bits

    /// No count.
    static var unknown: Self { Self(bits: .max) }

    private init(bits: Bits) { self.bits = bits }

    /// `count` (not negative) held compactly; unknown for nil.
    init(_ count: Int?) {
        guard let count, count >= 0 else {
            self = .unknown
            return
        }
        let length = Int.bitWidth - count.leadingZeroBitCount
        guard length > Self.mantissaBits else {
            bits = Bits(count)
            return
        }
        let exponent = length - Self.mantissaBits
        guard exponent <= Self.maxExponent else {
            bits = Bits(Self.maxExponent) << Self.mantissaBits | Self.mantissaMask
            return
        }
        bits = Bits(exponent) << Self.mantissaBits | Bits(count >> exponent)
    }

    /// The count, nil when unknown.
    var value: Int? {
        guard bits != .max else { return nil }
        return Int(bits & Self.mantissaMask) << Int(bits >> Self.mantissaBits)
    }

    private static var mantissaBits: Int { Bits.bitWidth - 5 }
    private static var mantissaMask: Bits { (Bits(1) << mantissaBits) - 1 }
    /// The largest exponent; 31, all ones with a full mantissa, is ``unknown``.
    private static var maxExponent: Int { 30 }
}
