import MeTubeCore

/// What `subscriptions.list?mine=true` gave, page after page, and why the reading stopped early
/// if it did: what was read before a failure is kept.
public struct YouTubeSubscriptionList: Sendable {
    /// The channels, each once, in the order YouTube listed them.
    public var channels: [Channel] = []
    /// Items that could not be used, each with its page, position and reason.
    public var rejected: [String] = []
    /// How many pages were read.
    public var pages = 0
    /// Why the reading stopped before the last page, if it did.
    public var failure: YouTubeError?
    /// The credentials after any refresh, to be saved.
    public var credentials: YouTubeCredentials

    /// Creates an empty list read with `credentials`.
    public init(credentials: YouTubeCredentials) {
        self.credentials = credentials
    }
}
