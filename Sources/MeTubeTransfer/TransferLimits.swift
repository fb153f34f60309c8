import Foundation

/// The bounds every request to a peer is held to, so that no server can hang a sync, a sign-in or
/// a SponsorBlock fetch: a total deadline covering connect, headers and body; a minimum transfer
/// rate once the body has begun; a body size cap; and, optionally, the deadline of the whole run
/// the request belongs to.
public struct TransferLimits: Sendable {
    /// How long one request may take from connect to the body's last byte.
    public var total: Duration
    /// The slowest average body rate accepted, in bytes per second, once `rateGrace` has passed
    /// since the headers arrived (a server that drips its answer is cut off).
    public var minimumBytesPerSecond: Int
    /// How long a body may take before the minimum rate applies.
    public var rateGrace: Duration
    /// The largest body accepted.
    public var maxBodyBytes: Int
    /// When the whole run ends; no request outlives it.
    public var runDeadline: ContinuousClock.Instant?

    /// Creates limits; by default 15 s in total, at least 1 KiB/s after 3 s, 16 MiB at most.
    public init(total: Duration = .seconds(15), minimumBytesPerSecond: Int = 1024, rateGrace: Duration = .seconds(3), maxBodyBytes: Int = 16 << 20, runDeadline: ContinuousClock.Instant? = nil) {
        self.total = total
        self.minimumBytesPerSecond = minimumBytesPerSecond
        self.rateGrace = rateGrace
        self.maxBodyBytes = maxBodyBytes
        self.runDeadline = runDeadline
    }
}
