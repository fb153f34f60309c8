import Foundation

/// When to try a failed request again: after 1 s, 2 s and 4 s (plus up to 25 % jitter) by default,
/// only for retryable failures, never sooner than a server's Retry-After.
public struct HubRetryPolicy: Sendable {
    /// The waits before the second, third, … attempt.
    public var delays: [Duration]
    /// The largest extra fraction of each wait added at random (0.25 = up to 25 % more).
    public var jitter: Double
    /// The longest Retry-After honoured; a longer one fails the request instead.
    public var maxRetryAfter: Duration

    /// Creates a policy.
    public init(delays: [Duration] = [.seconds(1), .seconds(2), .seconds(4)], jitter: Double = 0.25, maxRetryAfter: Duration = .seconds(60)) {
        self.delays = delays
        self.jitter = jitter
        self.maxRetryAfter = maxRetryAfter
    }

    /// No retries at all.
    public static let none = HubRetryPolicy(delays: [])

    /// The wait before attempt `attempt + 1` after `error`, or nil to give up.
    func delay(after error: SyncError, attempt: Int) -> Duration? {
        guard error.isRetryable, attempt < delays.count else { return nil }
        let base = delays[attempt] * (1 + Double.random(in: 0...max(0, jitter)))
        if case .http(_, _, let retryAfter?) = error {
            guard retryAfter <= maxRetryAfter else { return nil }
            return max(base, retryAfter)
        }
        return base
    }
}
