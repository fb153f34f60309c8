/// What the channel catalog service (``ChannelCatalogService``) reads and writes: which channels
/// are due a catalog call — never backfilled, or holding videos without a length that arrived
/// since their last successful call — and what each call did. In the server's SQLite database
/// (``SQLiteCatalogRepository``) or its PostgreSQL database (``PostgresCatalogRepository``).
/// Times are milliseconds since 1970.
protocol CatalogRepository: Sendable {
    /// Up to `limit` channels due a catalog call at `now`, oldest registration first. Only
    /// channels holding videos are due — their feed was ingested, and ingestion wakes the service
    /// after it commits — so a backfill lands behind the feed's videos; a channel that failed
    /// waits for its retry time.
    func catalogChannelsDue(now: Int64, backfill: Bool, durations: Bool, limit: Int) async throws -> [CatalogDue]
    /// Records a successful call for `channelID`: backfilled when `backfilled`, and its videos up
    /// to `checkedSeq` asked about.
    func recordCatalogSuccess(channelID: String, backfilled: Bool, checkedSeq: Int64) async throws
    /// Records a failed call: the channel is due again at `retryAt`, with `reason` kept.
    func recordCatalogFailure(channelID: String, retryAt: Int64, reason: String) async throws
    /// The date of the oldest video the hub holds of `channelID`, seconds since 1970.
    func oldestPublished(channelID: String) async throws -> Double?
}

/// One channel due a catalog call.
struct CatalogDue: Sendable, Equatable {
    /// The channel's `UC…` id.
    var channelID: String
    /// Whether its last uploads are still to be brought in.
    var needsBackfill: Bool
    /// The highest `seq` of its videos when it was found due.
    var maxSeq: Int64
    /// How many calls in a row failed.
    var failures: Int
}
