import MeTubeCore

/// Why one feed fetch failed, as far as backing off and telling a source-wide outage apart care.
public struct FeedFailure: Sendable, Equatable {
    /// The HTTP status the feed server answered; nil when it gave no answer (no connection, a
    /// timeout) or an unreadable one.
    public var status: Int?
    /// The wait the server asked for with `Retry-After`, already bounded by ``RetryAfter``.
    public var retryAfter: Duration?
    /// What failed, in a few words: "HTTP 404", "no connection".
    public var summary: String

    /// A failure with `status` (or none), the server's `retryAfter`, and `summary` (by default
    /// "HTTP <status>", or "no answer").
    public init(status: Int?, retryAfter: Duration? = nil, summary: String? = nil) {
        self.status = status
        self.retryAfter = retryAfter
        self.summary = summary ?? status.map { "HTTP \($0)" } ?? "no answer"
    }
}
