import Foundation

/// What the hub has resolved: the channel id each link (by ``ChannelLink/key``) named, so a
/// household resolves a handle once. In the server's SQLite database (``SQLiteChannelLinkCache``)
/// or its PostgreSQL database, shared by every instance (``PostgresChannelLinkCache``).
protocol ChannelLinkCache: Sendable {
    /// The channel ids known for `keys`, by key; keys never resolved are missing.
    func channelIDs(forKeys keys: [String]) async throws -> [String: String]
    /// Stores what `resolved` keys named, at `now` (ms since 1970); a key stored before is overwritten.
    func store(_ resolved: [String: String], now: Int64) async throws
}
