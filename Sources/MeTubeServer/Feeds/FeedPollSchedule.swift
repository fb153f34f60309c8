/// Decides which registered channels a polling round of ``FeedIngester`` fetches; the others wait
/// for a later round. Without one, every round polls every channel.
public protocol FeedPollSchedule: Sendable {
    /// The channels of `channelIDs` to poll in the round starting now, in the given order.
    func channelsToPoll(_ channelIDs: [String]) async -> [String]
}
