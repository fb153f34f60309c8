import Foundation
import Logging
import MeTubeCore
import MeTubeFeeds

/// The subscriber side of WebSub, independent of HTTP: the hub's verification of intent and its
/// notifications for the callback of one channel.
struct WebSubService: Sendable {
    /// The largest notification body read; larger ones answer 413.
    static let maxNotificationBytes = 256 * 1024
    /// The longest `hub.challenge` echoed.
    static let maxChallengeBytes = 1_024
    /// The longest lease accepted from a hub, in seconds; a longer one is refused.
    static let maxLeaseSeconds = 366 * 86_400
    /// How long a channel whose subscription the hub denied waits before it is asked again.
    static let retryAfterDenial: Duration = .seconds(86_400)
    /// How far in the future a push's time may lie (the hub's clock may run ahead of ours).
    static let clockSkewMilliseconds: Int64 = 5 * 60_000

    /// The answer to a verification request.
    enum Verification: Sendable, Equatable {
        /// Echo the challenge: the subscription is confirmed.
        case challenge(String)
        /// Answer 2xx with no body (a denial taken note of).
        case acknowledged
        /// Answer 404: no such pending subscription, or a mode or topic the server did not ask for.
        case refused
    }

    /// What became of a notification.
    enum Delivery: Sendable, Equatable {
        /// Signed with the subscription's secret and ingested.
        case ingested(inserted: Int, updated: Int, removed: Int)
        /// Dropped (bad signature, unreadable body); the hub still gets 2xx.
        case dropped
        /// No subscription for this callback: 404.
        case unknown
    }

    let configuration: WebSubConfiguration
    let subscriptions: any WebSubRepository
    let hub: any HubRepository
    /// Signalled when a lease is confirmed, so the subscriber plans its renewal.
    let renewals: WakeSignal
    let logger: Logger

    /// Answers the hub's `GET` on the callback of `channelID` with the query `parameters`.
    func verify(channelID: String, parameters: [String: String]) async throws -> Verification {
        guard ChannelID.isValid(channelID), parameters["hub.topic"] == WebSubConfiguration.topic(for: channelID) else { return .refused }
        let now = Self.millisecondsNow()
        switch parameters["hub.mode"] {
        case "subscribe":
            guard let challenge = parameters["hub.challenge"], !challenge.isEmpty, challenge.utf8.count <= Self.maxChallengeBytes,
                  challenge.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7F }),
                  let lease = parameters["hub.lease_seconds"].flatMap({ Int($0) }), (1...Self.maxLeaseSeconds).contains(lease)
            else { return .refused }
            let requestedSince = now - configuration.verificationTimeout.wholeMilliseconds
            let renewAt = now + Int64(lease) * 800
            guard try await subscriptions.confirm(channelID: channelID, requestedSince: requestedSince, leaseSeconds: lease, now: now, renewAt: renewAt) else {
                logger.notice("WebSub verification without a pending subscription refused", metadata: ["channel": "\(channelID)"])
                return .refused
            }
            logger.info("WebSub subscription confirmed", metadata: ["channel": "\(channelID)", "leaseSeconds": "\(lease)"])
            renewals.signal()
            return .challenge(challenge)
        case "denied":
            guard try await subscriptions.deny(channelID: channelID, retryAt: now + Self.retryAfterDenial.wholeMilliseconds) else { return .refused }
            logger.warning("WebSub hub denied the subscription", metadata: [
                "channel": "\(channelID)", "reason": "\(DisplayText.line(parameters["hub.reason"] ?? "", limit: 200))",
            ])
            return .acknowledged
        default:
            return .refused
        }
    }

    /// Takes the hub's notification `body` for `channelID`, signed with `signature`
    /// (`X-Hub-Signature`): ingests its entries of that channel and marks its deleted entries gone
    /// (each with a new `seq`) when the signature is valid, drops it (logged) otherwise.
    func receive(channelID: String, body: Data, signature: String?) async throws -> Delivery {
        guard ChannelID.isValid(channelID), let subscription = try await subscriptions.subscription(channelID: channelID) else { return .unknown }
        guard WebSubSignature.isValid(signature, body: body, secret: subscription.secret) else {
            IngestionMetrics.webSubRejected.increment()
            logger.warning("WebSub notification with a bad signature dropped", metadata: [
                "channel": "\(channelID)", "bytes": "\(body.count)", "signed": "\(signature != nil)",
            ])
            return .dropped
        }
        let feed: AtomFeed
        do {
            feed = try AtomFeedParser.parse(body)
        } catch {
            IngestionMetrics.webSubRejected.increment()
            logger.warning("unreadable WebSub notification dropped", metadata: ["channel": "\(channelID)", "error": "\(error)"])
            return .dropped
        }
        let now = Date()
        let entries = feed.entries.filter { $0.channelID == channelID }
        let deletions = feed.deletedVideoIDs.filter(VideoID.isValid)
        let current = try await currentPushes(entries: entries, deletions: deletions, deletionTimes: feed.deletionTimes)
        let videos = entries.filter { current.contains($0.videoID) }.map { $0.video(fallbackDate: now) }
        var outcome = FeedIngestionOutcome(inserted: 0, updated: 0)
        if !videos.isEmpty {
            outcome = try await hub.ingest(FeedIngestion(channelID: channelID, channelTitle: feed.channelTitle, videos: videos))
        }
        let removed = try await subscriptions.markVideosGone(deletions.filter(current.contains), of: channelID)
        let stale = entries.count + deletions.count - videos.count - deletions.filter(current.contains).count
        if stale > 0 {
            logger.notice("WebSub delivery older than what is stored; its stale entries changed nothing", metadata: [
                "channel": "\(channelID)", "stale": "\(stale)",
            ])
        }
        IngestionMetrics.webSubDeliveries.increment()
        logger.info("WebSub delivery", metadata: [
            "channel": "\(channelID)", "entries": "\(feed.entries.count)", "inserted": "\(outcome.inserted)",
            "updated": "\(outcome.updated)", "removed": "\(removed)", "otherChannels": "\(feed.entries.count - videos.count)",
        ])
        return .ingested(inserted: outcome.inserted, updated: outcome.updated, removed: removed)
    }

    /// The video ids among `entries` and `deletions` whose push is current: those whose time (an
    /// entry's `updated`, a deletion's `when`) is no older than the last pushed time of that
    /// video, which is then recorded, and those that carry no time. A replayed or overtaken push
    /// is not current: it would roll the video back and hand it a new `seq`. A time in the future
    /// within a few minutes of clock skew is kept; one further ahead counts as now, so one push
    /// dated years ahead cannot freeze a video.
    private func currentPushes(entries: [AtomEntry], deletions: [String], deletionTimes: [String: Date]) async throws -> Set<String> {
        let now = Self.millisecondsNow()
        let pushTime = { (date: Date) in Self.pushTime(date.millisecondsSince1970, now: now) }
        var times: [String: Int64] = [:]
        var untimed: Set<String> = []
        for entry in entries {
            guard let updated = entry.updated else {
                untimed.insert(entry.videoID)
                continue
            }
            times[entry.videoID] = max(times[entry.videoID] ?? .min, pushTime(updated))
        }
        for videoID in deletions {
            guard let when = deletionTimes[videoID] else {
                untimed.insert(videoID)
                continue
            }
            times[videoID] = max(times[videoID] ?? .min, pushTime(when))
        }
        return untimed.union(try await subscriptions.claimPushedUpdates(times))
    }

    /// The time a push dated `millis` is ordered by at `now`: its own, unless it lies more than
    /// ``clockSkewMilliseconds`` ahead of `now`, when it counts as `now`.
    static func pushTime(_ millis: Int64, now: Int64) -> Int64 {
        millis > now + clockSkewMilliseconds ? now : millis
    }

    /// Milliseconds since 1970, the unit of the subscription table.
    static func millisecondsNow() -> Int64 { Date().millisecondsSince1970 }
}
