import Foundation
import MeTubeCore
import MeTubeFeeds

/// What direct mode remembers between runs about the feeds failing: each channel's backoff, the
/// global request rate toward the feed server, and whether the source as a whole is down. One
/// lives as long as its ``DirectVideoSource`` (the TUI's session, or one `metube sync`); with a
/// ``FeedHealthFile``, the backoff and the outage outlive it.
actor DirectFeedGuard {
    /// What a run should do with the followed channels.
    enum Plan: Sendable, Equatable {
        /// Fetch `due`; the channels of `backingOff` wait for their backoff (with their last
        /// error), the last of them until `until`.
        case fetch(due: [String], backingOff: [String: SyncError], until: Date?)
        /// The source is down: fetch only `channelID`, as a probe.
        case probe(channelID: String, outage: SourceOutage)
    }

    private let clock: FeedClock
    private let limiter: FeedRateLimiter
    private var backoff: FeedBackoff
    /// The last error of each channel backing off.
    private var lastErrors: [String: SyncError] = [:]
    private var detector: SourceOutageDetector
    private var probes = 0
    /// The outage that ended since the last run began, for that run's report.
    private var endedOutage: SourceOutage?
    /// Where the backoff and the outage are kept between runs, if anywhere.
    private let healthFile: FeedHealthFile?
    /// The feed URL template the kept state is about.
    private let feeds: String
    /// Whether the kept state has been taken up (or is to be ignored).
    private var restored: Bool
    /// The channels of the last plan (the kept state is about them only).
    private var followed: Set<String> = []
    /// The catalog calls earlier runs owe channels (they failed or were put off).
    private var catalogOwed: [String: CatalogNeed] = [:]

    /// A guard allowing `rate` requests per second, backing a failing channel off from
    /// `firstStep` (doubling up to six hours, with jitter), on `clock`; it takes up and keeps
    /// its state in `healthFile` for the feeds of `feeds`, unless `ignoresSaved` (then it only
    /// keeps it).
    init(
        rate: Double, firstStep: Duration = .seconds(300), clock: FeedClock = .continuous,
        healthFile: FeedHealthFile? = nil, feeds: String = "", ignoresSaved: Bool = false
    ) {
        self.healthFile = healthFile
        self.feeds = feeds
        restored = ignoresSaved
        self.clock = clock
        limiter = FeedRateLimiter(rate: rate, clock: clock)
        backoff = FeedBackoff(firstStep: firstStep)
        detector = SourceOutageDetector()
    }

    /// What a run over `channelIDs` does: during an outage, one probe (a different channel each
    /// time, so one dead channel cannot keep the outage going); otherwise the channels whose
    /// backoff is over.
    func plan(_ channelIDs: [String]) -> Plan {
        detector.channelCount = channelIDs.count
        followed = Set(channelIDs)
        if let outage = detector.outage, !channelIDs.isEmpty {
            defer { probes += 1 }
            return .probe(channelID: channelIDs[probes % channelIDs.count], outage: outage)
        }
        let now = clock.now()
        var due: [String] = []
        var backingOff: [String: SyncError] = [:]
        var latest: Duration?
        for id in channelIDs {
            if backoff.isDue(id, at: now) {
                due.append(id)
            } else {
                backingOff[id] = lastErrors[id] ?? .cancelled
                latest = max(latest ?? .zero, backoff.retryAt(id) ?? now)
            }
        }
        return .fetch(due: due, backingOff: backingOff, until: latest.map { Date().addingTimeInterval(($0 - now).seconds) })
    }

    /// Takes up the state an earlier run kept, once (never with `ignoresSaved`); a warning
    /// when its file was ignored.
    func restoreSaved() -> String? {
        guard !restored, let healthFile else { return nil }
        restored = true
        let date = Date().millisecondsSince1970
        let now = clock.now()
        let (state, warning) = healthFile.load(now: Date(millisecondsSince1970: date))
        guard let state, state.feeds == feeds else { return warning }
        for (id, channel) in state.channels where date - channel.until < FeedHealthFile.horizon {
            backoff.restore(id, failures: channel.failures, retryAt: now + .milliseconds(channel.until - date))
            lastErrors[id] = channel.status.map { .http(status: $0, message: "", retryAfter: nil) } ?? .connection(channel.reason)
        }
        catalogOwed.merge(state.catalogOwed ?? [:]) { current, saved in current.merged(with: saved) }
        if let outage = state.outage {
            let since = Date(millisecondsSince1970: outage.since)
            detector.restore(SourceOutage(since: since, reason: outage.reason), nextProbe: now + .milliseconds(outage.nextProbe - date))
        }
        return nil
    }

    /// Keeps the backoff of the followed channels and the outage in the state file; a warning
    /// when it could not.
    func save() -> String? {
        guard let healthFile else { return nil }
        let date = Date().millisecondsSince1970
        let now = clock.now()
        var state = FeedHealthState(savedAt: date, feeds: feeds)
        for (id, entry) in backoff.failingChannels where followed.contains(id) {
            let failure = lastErrors[id].map(FeedFailure.init)
            state.channels[id] = FeedHealthState.ChannelBackoff(
                until: date + (entry.retryAt - now).wholeMilliseconds, failures: entry.failures,
                status: failure?.status, reason: failure?.summary ?? "failing"
            )
        }
        if let outage = detector.outage {
            let nextProbe = date + (detector.nextProbe - now).wholeMilliseconds
            state.outage = FeedHealthState.Outage(since: outage.since.millisecondsSince1970, reason: outage.reason, nextProbe: nextProbe)
        }
        let owed = catalogOwed.filter { followed.contains($0.key) }
        state.catalogOwed = owed.isEmpty ? nil : owed
        return healthFile.save(state)
    }

    /// The catalog call an earlier run owes `channelID`, if any.
    func owedCatalog(_ channelID: String) -> CatalogNeed? {
        catalogOwed[channelID]
    }

    /// The channels an earlier run owes a catalog call.
    var owedCatalogChannels: Set<String> {
        Set(catalogOwed.keys)
    }

    /// Keeps `need` owed to `channelID` for a later run.
    func oweCatalog(_ channelID: String, _ need: CatalogNeed) {
        catalogOwed[channelID] = need.merged(with: catalogOwed[channelID])
    }

    /// Forgets what was owed to `channelIDs`: their calls' answers are stored.
    func settleCatalog(_ channelIDs: [String]) {
        for id in channelIDs { catalogOwed[id] = nil }
    }

    /// Makes the outage detector's window hold ``SourceOutageDetector/minimumSample`` fetches
    /// of a run spreading `count` fetches over `spread` (a minute when they are not spread).
    func spread(_ count: Int, over spread: Duration?) {
        guard let spread, count > 0 else {
            detector.span = SourceOutageDetector.window
            return
        }
        let sample = min(detector.minimumSample, count)
        detector.span = max(SourceOutageDetector.window, spread / count * sample)
    }

    /// Takes and forgets the outage that ended since the last call.
    func takeEndedOutage() -> SourceOutage? {
        defer { endedOutage = nil }
        return endedOutage
    }

    /// Waits for the next request slot of the global rate.
    func acquireSlot() async throws {
        try await limiter.acquire()
    }

    /// Records a fetch of `channelID` that ended with `error` (nil: the feed answered);
    /// returns the outage it showed, if it began now.
    func record(_ channelID: String, error: SyncError?) -> SourceOutage? {
        let now = clock.now()
        let failure = error.map(FeedFailure.init)
        if let failure {
            backoff.failed(channelID, failure, at: now)
            lastErrors[channelID] = error
        } else {
            backoff.succeeded(channelID)
            lastErrors[channelID] = nil
        }
        switch detector.record(failure, of: channelID, at: now, date: Date()) {
        case .began(let outage):
            forgetBackoff()
            return outage
        case .ended(let outage):
            endedOutage = outage
            forgetBackoff()
            return nil
        case nil:
            return nil
        }
    }

    /// Records a probe of `channelID` during an outage; true when the feed answered (the
    /// outage is over, and the next run fetches every channel).
    func recordProbe(_ channelID: String, error: SyncError?) -> Bool {
        guard let error else {
            _ = record(channelID, error: nil)
            return true
        }
        detector.probeFailed(FeedFailure(error), at: clock.now())
        return false
    }

    /// Forgets every channel's backoff: the source failed as a whole, not the channels.
    private func forgetBackoff() {
        backoff.forgetAll()
        lastErrors.removeAll()
    }
}

extension FeedFailure {
    /// What a direct-mode fetch error says about the feed: its HTTP status and Retry-After, or
    /// no answer.
    init(_ error: SyncError) {
        switch error {
        case .http(let status, _, let retryAfter): self.init(status: status, retryAfter: retryAfter)
        case .connection: self.init(status: nil, summary: "no connection")
        case .timeout: self.init(status: nil, summary: "timeout")
        default: self.init(status: nil, summary: "unreadable feed")
        }
    }
}
