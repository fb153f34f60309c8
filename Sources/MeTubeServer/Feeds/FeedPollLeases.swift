/// Shares the channels of a polling round of ``FeedIngester`` among the server instances on one
/// database: each instance claims a few channels at a time, as its fetches finish, so instances
/// polling at once split a round by how fast each fetches, and each channel is fetched by one.
/// Without one, a round fetches all its channels itself.
public protocol FeedPollLeases: Sendable {
    /// Leases to this instance up to `limit` of the leading channels of `channelIDs` that no
    /// instance holds a lease on; nil when that cannot be found out (the round then stops
    /// claiming).
    func claim(from channelIDs: [String], limit: Int) async -> FeedClaim?
}

/// What one ``FeedPollLeases/claim(from:limit:)`` leased.
public struct FeedClaim: Sendable, Equatable {
    /// The channels leased to this instance, in the order offered.
    public var channelIDs: [String]
    /// How many of the channels offered, from the first, the claim dealt with: each was leased
    /// here, is leased to (or being claimed by) an instance, or is no longer registered. The
    /// others were not looked at.
    public var settled: Int

    /// A claim of `channelIDs` that dealt with the first `settled` channels offered.
    public init(channelIDs: [String], settled: Int) {
        self.channelIDs = channelIDs
        self.settled = settled
    }
}
