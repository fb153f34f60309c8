import Foundation

/// A failure that may be worth trying again: it says so itself, and may carry the wait the server
/// asked for.
public protocol RetryableFailure: Error {
    /// Whether trying again later may succeed.
    var isRetryable: Bool { get }
    /// The wait the server asked for (its Retry-After), already range-checked; `nil` when it
    /// asked for none.
    var retryAfter: Duration? { get }
    /// The failure that stands for "the caller cancelled while waiting to retry".
    static var cancelled: Self { get }
}

/// When to try a failed request again, for the hub and the mark-sync service alike: after 1 s, 2 s
/// and 4 s (plus up to 25 % jitter) by default, only for failures that say they are retryable,
/// and never sooner than the server's Retry-After (a longer one than `maxRetryAfter` gives up).
public struct RetryPolicy: Sendable {
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
    public static let none = RetryPolicy(delays: [])

    /// The wait before the attempt after failed attempt number `attempt` (0 for the first), or
    /// `nil` to give up: when the failure is not `retryable`, the retries are used up, or
    /// `retryAfter` exceeds `maxRetryAfter`.
    public func delay(afterAttempt attempt: Int, retryable: Bool, retryAfter: Duration?) -> Duration? {
        guard retryable, attempt >= 0, attempt < delays.count else { return nil }
        let base = delays[attempt] * (1 + Double.random(in: 0...max(0, jitter)))
        guard let retryAfter else { return base }
        guard retryAfter <= maxRetryAfter else { return nil }
        return max(base, retryAfter)
    }

    /// Runs `operation`, running it again after each retryable failure per this policy; throws
    /// the last failure, or `Failure.cancelled` when cancelled while waiting.
    func perform<Answer, Failure: RetryableFailure>(_ operation: () async throws(Failure) -> Answer) async throws(Failure) -> Answer {
        var attempt = 0
        while true {
            do {
                return try await operation()
            } catch {
                guard !Task.isCancelled else { throw Failure.cancelled }
                guard let wait = delay(afterAttempt: attempt, retryable: error.isRetryable, retryAfter: error.retryAfter) else { throw error }
                attempt += 1
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    throw Failure.cancelled
                }
            }
        }
    }
}
