import Synchronization

/// Per-user request throttling: a token bucket per user, refilled at the configured rate.
final class MarkSyncThrottle: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let rate: Double?
    private let burst: Double
    private let buckets = Mutex<[Int64: Bucket]>([:])

    /// Creates a throttle allowing `rate` requests per second (none when `nil`) with bursts of
    /// `burst`.
    init(rate: Double?, burst: Int) {
        self.rate = rate
        self.burst = Double(max(burst, 1))
    }

    /// Admits one request of `userID`: `nil` when it may proceed, else the seconds to wait.
    func admit(_ userID: Int64) -> Double? {
        guard let rate, rate > 0 else { return nil }
        let now = ContinuousClock.now
        return buckets.withLock { buckets in
            var bucket = buckets[userID] ?? Bucket(tokens: burst, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + seconds * rate)
            bucket.updated = now
            defer { buckets[userID] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return ((1 - bucket.tokens) / rate * 1000).rounded(.up) / 1000
        }
    }
}
