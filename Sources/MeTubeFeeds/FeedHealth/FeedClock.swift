import MeTubeCore

/// The time the feed pollers back off, pace and probe by: offsets from the moment the clock was
/// made, read from any `Clock` (the continuous clock in use, a test clock in tests and benches).
public struct FeedClock: Sendable {
    /// The time since the clock was made.
    public let now: @Sendable () -> Duration
    private let sleepUntil: @Sendable (Duration) async throws -> Void

    /// A feed clock reading `clock`.
    public init<C: Clock<Duration>>(_ clock: C) {
        let origin = clock.now
        now = { origin.duration(to: clock.now) }
        sleepUntil = { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
    }

    /// The continuous clock.
    public static var continuous: FeedClock { FeedClock(ContinuousClock()) }

    /// Waits until the clock reads `offset` (at once when it has passed); throws when cancelled.
    public func sleep(until offset: Duration) async throws {
        guard offset > now() else { return }
        try await sleepUntil(offset)
    }
}
