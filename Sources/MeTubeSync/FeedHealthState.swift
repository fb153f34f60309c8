import Foundation
import MeTubeCore

/// What direct mode keeps between runs about failing feeds (``FeedHealthFile``): each failing
/// channel's backoff and the source's outage, with wall times in milliseconds since 1970.
struct FeedHealthState: Codable, Equatable, Sendable {
    /// One channel backing off.
    struct ChannelBackoff: Codable, Equatable, Sendable {
        /// When it may be fetched again.
        var until: Int64
        /// Its failures in a row (the backoff step).
        var failures: Int
        /// The HTTP status of its last failure, if it answered at all.
        var status: Int?
        /// Its last failure, in a few words ("HTTP 404", "timeout").
        var reason: String
    }

    /// The source failing as a whole.
    struct Outage: Codable, Equatable, Sendable {
        /// When it began.
        var since: Int64
        /// Its most common failure.
        var reason: String
        /// When the next probe is due.
        var nextProbe: Int64
    }

    /// The layout's version; a file with another one is not read.
    var version = Self.currentVersion
    /// When it was written.
    var savedAt: Int64
    /// The feed URL template the state is about (another feed server's state does not apply).
    var feeds: String
    /// The channels backing off, by channel id.
    var channels: [String: ChannelBackoff] = [:]
    /// The outage in progress, if any.
    var outage: Outage?
    /// The channels whose backfill or lengths call failed or was put off, by channel id; absent
    /// when none (and in files of earlier versions).
    var catalogOwed: [String: CatalogNeed]?

    /// The version this metube writes.
    static let currentVersion = 1
}
