/// The users and channels an operator manages (`metube-server users|channels`), on either backend.
///
/// A user or channel the database does not hold is an answer (false or nil), not a failure: the
/// command says so with an exit code of its own.
public protocol UserAndChannelAdministration: Sendable {
    /// Every user by name, without tokens.
    func users() async throws -> [AdministeredUser]
    /// Deletes the user `name` with their zones and records, their token stopping working at once;
    /// false when no user has that name.
    func removeUser(name: String) async throws -> Bool
    /// Gives the user `name` a new token and returns it (only its hash is stored); nil when no
    /// user has that name.
    func rotateToken(name: String) async throws -> String?
    /// What the user `name` holds and the quota set for them; nil when no user has that name.
    func quota(name: String) async throws -> MarkSyncUserUsage?
    /// Sets the quota of the user `name` (a nil limit: the server's default), which a running
    /// server applies from its next write; false when no user has that name.
    func setQuota(name: String, _ setting: MarkSyncQuotaSetting) async throws -> Bool
    /// Every registered channel with its number of stored videos, its newest upload and its fetches.
    func channels() async throws -> [AdministeredChannel]
    /// Deletes the channel `channelID` and its videos; false when it is not registered.
    func removeChannel(id channelID: String) async throws -> Bool
}

/// A mark-sync user as `users list` shows them.
public struct AdministeredUser: Sendable, Hashable {
    /// The name given at `users add`.
    public var name: String
    /// When the user was added, in milliseconds since 1970; nil for users older than the record.
    public var createdMillis: Int64?
    /// The latest authenticated request, to the minute; nil before any.
    public var lastSeenMillis: Int64?
}

/// A registered channel as `channels list` shows it.
public struct AdministeredChannel: Sendable, Hashable {
    /// The channel id.
    public var channelID: String
    /// The channel's title, once a feed fetch has named it.
    public var title: String?
    /// When the channel was first registered, in seconds since 1970.
    public var registeredAt: Int64
    /// How many of its videos the hub stores.
    public var videoCount: Int
    /// The publication time of its newest stored video, in seconds since 1970.
    public var newestUpload: Double?
    /// When its feed was last fetched, in milliseconds since 1970; nil before the first fetch.
    public var lastFetchMillis: Int64?
    /// How many fetches in a row failed, up to the last one (0 when it succeeded).
    public var consecutiveFailures: Int
    /// Why the latest failed fetch failed, kept after later successes; nil when none ever failed.
    public var lastFailure: String?
}
