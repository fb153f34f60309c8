/// A view or rating count held exactly in seven bytes that need no alignment, so that ``Video``
/// keeps its two counts in holes its layout leaves anyway (after a 9-byte optional and at the end)
/// and costs nothing more in a library of hundreds of thousands. Holds 0…``largest``; all ones
/// stands for "unknown", as does any count outside that range.
struct ExactCount: Sendable, Hashable {
    private var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    /// The largest count held: 2^56 − 2, above ``FeedLimits/maxCount``.
    static let largest = (1 << 56) - 2

    /// No count.
    static var unknown: Self { Self(bits: UInt64(largest) + 1) }

    /// `count` held exactly; unknown for nil, a negative count or one above ``largest``.
    init(_ count: Int?) {
        guard let count, (0...Self.largest).contains(count) else {
            self = .unknown
            return
        }
        self.init(bits: UInt64(count))
    }

    private init(bits: UInt64) {
        bytes = (UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits >> 16),
                 UInt8(truncatingIfNeeded: bits >> 24), UInt8(truncatingIfNeeded: bits >> 32), UInt8(truncatingIfNeeded: bits >> 40),
                 UInt8(truncatingIfNeeded: bits >> 48))
    }

    /// The count, nil when unknown.
    var value: Int? {
        let bits = self.bits
        return bits > UInt64(Self.largest) ? nil : Int(bits)
    }

    private var bits: UInt64 {
        UInt64(bytes.0) | UInt64(bytes.1) << 8 | UInt64(bytes.2) << 16 | UInt64(bytes.3) << 24 | UInt64(bytes.4) << 32
            | UInt64(bytes.5) << 40 | UInt64(bytes.6) << 48
    }

    static func == (left: Self, right: Self) -> Bool { left.bits == right.bits }

    func hash(into hasher: inout Hasher) { hasher.combine(bits) }
}
