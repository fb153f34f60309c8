import Foundation
import MeTubeYouTube

/// What the YouTube Data API enrichment reads and writes: the videos and channels still to look
/// up, what was found, and the units spent per UTC day; in the server's SQLite database
/// (``SQLiteEnrichmentRepository``) or in its PostgreSQL database, shared by every instance
/// (``PostgresEnrichmentRepository``). Times are milliseconds since 1970.
protocol EnrichmentRepository: Sendable {
    /// Up to `limit` videos without a duration, newest first: never looked up, or looked up
    /// before `recheckBefore` fewer than `maxAttempts` times. Where several instances share the
    /// storage, a video one of them is looking up is left out for the others.
    func videosToEnrich(recheckBefore: Int64, maxAttempts: Int, limit: Int) async throws -> [String]
    /// Records a lookup of `checked` at `now` and stores `durations`. A video whose duration
    /// changes gets a fresh `seq`, so clients paging by `seq` receive it again with its duration.
    /// Returns how many videos changed.
    func recordVideoLookup(checked: [String], durations: [String: Int], now: Int64) async throws -> Int
    /// Forgets the lookups of videos the hub no longer keeps.
    func forgetRemovedVideos() async throws
    /// Up to `limit` videos whose availability re-check (``AvailabilityRecheck``) is due at
    /// `now`, each claimed for ``AvailabilityRecheck/claim`` so that no other pass or instance
    /// asks about it meanwhile.
    func availabilityRechecksDue(now: Int64, limit: Int) async throws -> [String]
    /// Stores what the Data API said at `now` of whether `states`' videos can be watched: a
    /// changed state or scheduled start gets a fresh `seq`, so clients receive the row again,
    /// and the video's next re-check is scheduled by ``AvailabilityRecheck``. Videos the hub does
    /// not keep are ignored. Returns how many videos changed.
    func recordAvailability(_ states: [String: LiveStreamingState], now: Int64) async throws -> Int
    /// Up to `limit` channels to look up, newest registrations first: never looked up, looked up
    /// without a thumbnail before `retryBefore`, or looked up before `refreshBefore`. Where
    /// several instances share the storage, a channel one of them is looking up is left out for
    /// the others.
    func channelsToEnrich(retryBefore: Int64, refreshBefore: Int64, limit: Int) async throws -> [String]
    /// Records a lookup of `checked` at `now` and stores the titles and thumbnails found.
    func recordChannelLookup(checked: [String], details: [String: YouTubeChannelDetails], now: Int64) async throws
    /// Spends `units` of `day`'s budget of `dailyUnits`; false (nothing spent) when that would
    /// pass the budget or the API said the quota is exceeded that day. Usage of days before
    /// `forgetBefore` is dropped. Every instance sharing the storage spends from the one budget.
    func spend(units: Int, day: String, dailyUnits: Int, forgetBefore: String) async throws -> Bool
    /// Marks `day`'s quota as spent: the API answered `quotaExceeded`.
    func markQuotaExceeded(day: String) async throws
    /// The units spent on `day`, and whether the API said its quota is exceeded.
    func quotaUsage(day: String) async throws -> (used: Int, exceeded: Bool)
}
