import MeTubeCore

/// A global limit on requests per second toward one feed source: each request waits for its
/// slot, slots `1 / rate` apart, so however many fetches run at once, the source sees at most
/// `rate` requests a second (and the requests of a round are spread out instead of sent at once).
public actor FeedRateLimiter {
    /// The requests per second allowed; 0 or less is no limit.
    public let rate: Double
    private let clock: FeedClock
    private var nextSlot = Duration.zero

    /// A limiter of `rate` requests per second on `clock`.
    public init(rate: Double, clock: FeedClock = .continuous) {
        self.rate = rate.isFinite ? rate : 0
        self.clock = clock
    }

    /// Waits for the next free slot; throws `CancellationError` when cancelled while waiting
    /// (the slot is then lost, which only slows the others down by one slot).
    public func acquire() async throws {
        guard rate > 0 else { return }
        let now = clock.now()
        let slot = max(now, nextSlot)
        nextSlot = slot + .seconds(1 / rate)
        try await clock.sleep(until: slot)
    }
}
