import MeTubeCore

/// What the hub has resolved: the channel each link (by ``MeTubeCore/ChannelLink/key``) names,
/// or that it names none, so a household resolves a handle once. In the server's SQLite database
/// (``SQLiteChannelLinkCache``) or its PostgreSQL database, shared by every instance
/// (``PostgresChannelLinkCache``). Times are milliseconds since 1970.
protocol ChannelLinkCache: Sendable {
    /// The answers stored for `keys`: a channel resolved at or after `foundSince`, or a link
    /// YouTube said does not exist at or after `missingSince`; older answers and keys never
    /// resolved are absent.
    func answers(forKeys keys: [String], foundSince: Int64, missingSince: Int64) async throws -> [String: CachedLink]
    /// Stores `answer` for `key` at `now`, replacing what was stored.
    func store(_ answer: CachedLink, forKey key: String, now: Int64) async throws
}

/// One stored answer.
enum CachedLink: Sendable, Equatable {
    /// The link names this `UC…` channel.
    case channel(String)
    /// YouTube said the link's handle, name or video does not exist.
    case missing

    /// The answer a stored channel id (nil: missing) reads back as; nil when the stored id is not valid.
    init?(stored channelID: String?) {
        guard let channelID else {
            self = .missing
            return
        }
        guard ChannelID.isValid(channelID) else { return nil }
        self = .channel(channelID)
    }

    /// The channel id as stored: nil for a missing link.
    var storedChannelID: String? {
        if case let .channel(id) = self { return id }
        return nil
    }
}
