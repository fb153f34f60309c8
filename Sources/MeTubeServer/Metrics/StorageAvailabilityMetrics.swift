import Metrics

/// The database's availability, exported once ``ServerMetrics/bootstrap(port:onListening:)`` has
/// run: `metube_db_unavailable_total`, the database calls and turns that failed for want of the
/// database (it did not answer, or a lock or turn was not free, in time; each fails its request
/// with 503); `metube_db_outages_total`, the
/// times the database was found unreachable; and the gauge `metube_db_reachable` (1 or 0).
enum StorageAvailabilityMetrics {
    /// Database calls and turns that failed for want of the database.
    static let refused = Counter(label: "metube_db_unavailable_total")
    /// Times the database went from reachable to unreachable.
    static let outages = Counter(label: "metube_db_outages_total")
    /// 1 while the database is reachable, 0 while it is not.
    static let reachable = Gauge(label: "metube_db_reachable")

    /// Exports the counters as 0 and the database as reachable, before anything happened.
    static func exportInitialValues() {
        refused.increment(by: 0)
        outages.increment(by: 0)
        reachable.record(1)
    }
}
