import Foundation

/// One channel's WebSub subscription as stored.
struct WebSubSubscription: Sendable, Equatable {
    /// Where the subscription stands.
    enum State: String, Sendable {
        /// A subscribe request was accepted by the hub and waits for its verification of intent.
        case requested
        /// The hub verified a subscription; it is live until `leaseExpiresAt`.
        case active
        /// The hub refused the subscription (`hub.mode=denied`).
        case denied
        /// The last subscribe request failed (network, hub status).
        case failing
    }

    /// The channel.
    var channelID: String
    /// The HMAC key the hub signs this channel's notifications with.
    var secret: Data
    /// Where it stands.
    var state: State
    /// When the subscribe request waiting for verification was accepted (ms since 1970).
    var requestedAt: Int64?
    /// When the verified lease ends (ms since 1970).
    var leaseExpiresAt: Int64?
    /// Subscribe requests that failed in a row.
    var failures: Int
}

/// A channel whose subscription is due: never subscribed, to renew, or to try again.
struct DueSubscription: Sendable, Equatable {
    var channelID: String
    /// The stored secret, nil when the channel was never subscribed.
    var secret: Data?
    var failures: Int
    /// Whether a verified lease is still live (its state stays `active` while it is renewed).
    var leaseIsLive: Bool
    /// Whether the last request was never verified: the hub never called back in time.
    var wasNeverVerified: Bool
}

/// Where the WebSub subscriptions are kept, and the deletions WebSub announces are made: the
/// server's SQLite database (``SQLiteWebSubRepository``) or its PostgreSQL database
/// (``PostgresWebSubRepository``), which every instance shares. Times are milliseconds since 1970.
protocol WebSubRepository: Sendable {
    /// Up to `limit` registered channels whose subscription is due at `now`, those never
    /// subscribed and the longest overdue first. Where several instances share the storage, each
    /// due channel goes to one of them.
    func dueSubscriptions(now: Int64, limit: Int) async throws -> [DueSubscription]
    /// When the next subscription falls due: 0 when a channel was never subscribed, nil when
    /// there are no channels.
    func nextDueTime() async throws -> Int64?
    /// Records a subscribe request for `channelID` sent at `now` after `failures` failed or
    /// unverified ones: it waits for verification until `retryAt`, when it is sent again. A new
    /// subscription stores `secret`; a known one keeps its stored secret. A live lease stays
    /// `active`. Returns the secret the request must carry (the stored one), nil when the
    /// channel is no longer registered.
    func recordRequested(channelID: String, secret: Data, now: Int64, retryAt: Int64, failures: Int) async throws -> Data?
    /// Records a failed subscribe request for `channelID`: no verification is awaited, and it is
    /// tried again at `retryAt`. A live lease stays `active`.
    func recordFailure(channelID: String, secret: Data, now: Int64, retryAt: Int64) async throws
    /// The stored subscription of `channelID`, if any.
    func subscription(channelID: String) async throws -> WebSubSubscription?
    /// Confirms the subscribe request of `channelID` if one was accepted at or after
    /// `requestedSince`: the lease of `leaseSeconds` runs from `now`, and the subscription is
    /// renewed at `renewAt`. Returns whether a request was waiting.
    func confirm(channelID: String, requestedSince: Int64, leaseSeconds: Int, now: Int64, renewAt: Int64) async throws -> Bool
    /// Records the hub's refusal of `channelID`'s subscription; it is asked again at `retryAt`.
    /// Returns whether the channel had a subscription.
    func deny(channelID: String, retryAt: Int64) async throws -> Bool
    /// The channels whose verified lease is live at `now`.
    func liveChannelIDs(now: Int64) async throws -> Set<String>
    /// Marks the stored videos `videoIDs` of `channelID` gone, each with a new `seq`, so clients
    /// that synced them learn it (those of other channels, unknown ones and ones already gone are
    /// left alone); returns how many were marked.
    func markVideosGone(_ videoIDs: [String], of channelID: String) async throws -> Int
    /// Records, for each video, the time a push says it last changed (its `updated`, or a
    /// deletion's `when`), where that is no older than the time recorded before; returns the
    /// videos it was recorded for, whose push may be applied. One statement, so of two racing
    /// pushes of one video, the older loses.
    func claimPushedUpdates(_ updates: [String: Int64]) async throws -> Set<String>
}

extension WebSubRepository {
    /// Records a first subscribe request for `channelID`, after no failures.
    @discardableResult
    func recordRequested(channelID: String, secret: Data, now: Int64, retryAt: Int64) async throws -> Data? {
        try await recordRequested(channelID: channelID, secret: secret, now: now, retryAt: retryAt, failures: 0)
    }
}
