/// A hybrid logical clock reading: wall-clock milliseconds merged with a logical counter.
///
/// Ordering is by `millis`, then `counter`; ties between devices are broken by device id in
/// ``Mark/isNewer(than:)``.
public struct HybridTimestamp: Codable, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970, never behind the largest reading this device has seen.
    public var millis: Int64
    /// Disambiguates readings within the same millisecond.
    public var counter: UInt32

    /// Creates a reading.
    public init(millis: Int64, counter: UInt32 = 0) {
        self.millis = millis
        self.counter = counter
    }

    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
        (lhs.millis, lhs.counter) < (rhs.millis, rhs.counter)
    }

    /// The compact wire form `millis-counter`, used in status records.
    public var description: String { "\(millis)-\(counter)" }

    /// Parses the form written by ``description``.
    public init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let millis = Int64(parts[0]), let counter = UInt32(parts[1]) else { return nil }
        self.init(millis: millis, counter: counter)
    }
}

/// A hybrid logical clock: issues readings that never go backwards and that stay ahead of every
/// reading received from elsewhere, so a device whose wall clock runs behind still orders its
/// later edits after the ones it has seen.
public struct HybridLogicalClock: Sendable {
    private var last: HybridTimestamp
    private let wallClock: @Sendable () -> Int64

    /// Creates a clock that starts after `last` and reads wall time from `wallClock`.
    public init(last: HybridTimestamp = HybridTimestamp(millis: 0), wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMillis) {
        self.last = last
        self.wallClock = wallClock
    }

    /// The newest reading issued or observed.
    public var latest: HybridTimestamp { last }

    /// The wall clock of this machine in milliseconds since 1970.
    public static let systemMillis: @Sendable () -> Int64 = {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// Issues a reading for a local event.
    public mutating func now() -> HybridTimestamp {
        let wall = wallClock()
        if wall > last.millis {
            last = HybridTimestamp(millis: wall)
        } else {
            last.counter &+= 1
        }
        return last
    }

    /// Merges a reading received from another device, so later local readings sort after it.
    public mutating func observe(_ remote: HybridTimestamp) {
        if remote > last { last = remote }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
