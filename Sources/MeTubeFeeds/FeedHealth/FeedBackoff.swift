import MeTubeCore

/// When each failing channel's feed may be fetched again: after its first failure `firstStep`,
/// then twice as long after each further one up to `maxStep`, each step lengthened by up to
/// `jitter` at random (so channels that failed together do not come back together), and never
/// sooner than the server's `Retry-After` (itself bounded by ``RetryAfter/limit``). A success
/// forgets the channel.
public struct FeedBackoff: Sendable {
    /// The wait after a channel's first failure.
    public var firstStep: Duration
    /// The longest wait between two fetches of a failing channel (before `Retry-After`).
    public var maxStep: Duration
    /// The largest extra fraction of each step added at random (0.25 = up to 25 % more).
    public var jitter: Double

    private struct Entry: Sendable {
        var failures = 0
        var retryAt = Duration.zero
    }

    private var entries: [String: Entry] = [:]
    private var random: SplitMix64

    /// A backoff with those steps; `seed` fixes the jitter (tests and benches), or a random one.
    public init(firstStep: Duration, maxStep: Duration = .seconds(6 * 3600), jitter: Double = 0.25, seed: UInt64 = .random(in: 0...UInt64.max)) {
        self.firstStep = max(firstStep, .zero)
        self.maxStep = max(maxStep, self.firstStep)
        self.jitter = min(max(jitter, 0), 1)
        random = SplitMix64(seed: seed)
    }

    /// Records that `channelID` failed at `now` (a ``FeedClock`` reading) and returns how long it
    /// now waits.
    @discardableResult
    public mutating func failed(_ channelID: String, _ failure: FeedFailure, at now: Duration) -> Duration {
        var entry = entries[channelID] ?? Entry()
        entry.failures += 1
        var wait = min(maxStep, firstStep * (1 << min(entry.failures - 1, 20)))
        wait = wait * (1 + Double.random(in: 0...jitter, using: &random))
        if let retryAfter = failure.retryAfter { wait = max(wait, min(retryAfter, RetryAfter.limit)) }
        entry.retryAt = now + wait
        entries[channelID] = entry
        return wait
    }

    /// Forgets `channelID`'s failures: its feed answered.
    public mutating func succeeded(_ channelID: String) {
        entries[channelID] = nil
    }

    /// Forgets every channel's failures (the source failed as a whole, not the channels).
    public mutating func forgetAll() {
        entries.removeAll()
    }

    /// Whether `channelID` may be fetched at `now`.
    public func isDue(_ channelID: String, at now: Duration) -> Bool {
        guard let entry = entries[channelID] else { return true }
        return entry.retryAt <= now
    }

    /// How many times in a row `channelID` has failed.
    public func failures(of channelID: String) -> Int { entries[channelID]?.failures ?? 0 }

    /// When `channelID` may be fetched again; nil when it is not backing off.
    public func retryAt(_ channelID: String) -> Duration? { entries[channelID]?.retryAt }

    /// The channels with failures, each with its failures in a row and when it may be fetched
    /// again (to keep them between runs).
    public var failingChannels: [String: (failures: Int, retryAt: Duration)] {
        entries.mapValues { ($0.failures, $0.retryAt) }
    }

    /// Takes up `channelID`'s backoff as an earlier run left it: `failures` in a row (at least
    /// one), fetched again from `retryAt`.
    public mutating func restore(_ channelID: String, failures: Int, retryAt: Duration) {
        entries[channelID] = Entry(failures: max(1, failures), retryAt: retryAt)
    }
}
