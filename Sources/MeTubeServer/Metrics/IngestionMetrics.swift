import Metrics

/// The ingestion counters, exported as `metube_ingest_feeds_total{result=…}`,
/// `metube_websub_deliveries_total` and `metube_websub_rejected_total` once ``ServerMetrics/bootstrap(port:onListening:)`` has run
/// (before that, swift-metrics drops them).
public enum IngestionMetrics {
    /// Feeds fetched and parsed.
    public static let fetched = Counter(label: "metube_ingest_feeds_total", dimensions: [("result", "fetched")])
    /// Feeds that answered 304 Not Modified.
    public static let notModified = Counter(label: "metube_ingest_feeds_total", dimensions: [("result", "not_modified")])
    /// Feeds that failed.
    public static let failed = Counter(label: "metube_ingest_feeds_total", dimensions: [("result", "failed")])
    /// WebSub notifications delivered to the hub; the WebSub callback increments it.
    public static let webSubDeliveries = Counter(label: "metube_websub_deliveries_total")
    /// WebSub notifications dropped: a bad or missing signature, or a body that is no Atom feed.
    public static let webSubRejected = Counter(label: "metube_websub_rejected_total")

    /// Every counter, so a freshly bootstrapped backend can export them as 0 before the first round.
    static var all: [Counter] { [fetched, notModified, failed, webSubDeliveries, webSubRejected] }

    /// Adds one polling round's outcome to the counters.
    static func count(_ round: FeedIngester.Round) {
        fetched.increment(by: round.fetched)
        notModified.increment(by: round.notModified)
        failed.increment(by: round.failed)
    }
}
