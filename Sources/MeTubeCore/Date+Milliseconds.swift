import Foundation

extension Date {
    /// Milliseconds since 1970, rounded to the nearest, as stores and wire formats keep times.
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    /// The time `milliseconds` after 1970.
    public init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
