import Metrics

/// The feed source's health, exported once ``ServerMetrics/bootstrap(port:onListening:)`` has
/// run: the gauge `metube_feed_source_down` (1 while the feeds fail for (nearly) every channel at
/// once, 0 otherwise) and `metube_feed_source_outages_total`, the times that began.
enum FeedSourceMetrics {
    /// Times the feed source went down as a whole.
    static let outages = Counter(label: "metube_feed_source_outages_total")
    /// 1 while the feed source is down as a whole, 0 while it answers.
    static let down = Gauge(label: "metube_feed_source_down")

    /// Exports the counter and the gauge as 0, before anything happened.
    static func exportInitialValues() {
        outages.increment(by: 0)
        down.record(0)
    }

    /// The feed source went down as a whole.
    static func outageBegan() {
        outages.increment()
        down.record(1)
    }

    /// The feed source answers again.
    static func outageEnded() {
        down.record(0)
    }
}
