import Foundation
import MeTubeCore

/// What direct mode remembers between runs about the feeds failing: each channel's backoff, the
/// global request rate toward the feed server, and whether the source as a whole is down. One
/// lives as long as its ``DirectVideoSource`` (the TUI's session, or one `metube sync`).
actor DirectFeedGuard {
    /// What a run should do with the followed channels.
    enum Plan: Sendable, Equatable {
        /// Fetch `due`; the channels of `backingOff` wait for their backoff (with their last error).
        case fetch(due: [String], backingOff: [String: SyncError])
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

    /// A guard allowing `rate` requests per second, backing a failing channel off from
    /// `firstStep` (doubling up to six hours, with jitter), on `clock`.
    init(rate: Double, firstStep: Duration = .seconds(300), clock: FeedClock = .continuous) {
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
        if let outage = detector.outage, !channelIDs.isEmpty {
            defer { probes += 1 }
            return .probe(channelID: channelIDs[probes % channelIDs.count], outage: outage)
        }
        let now = clock.now()
        var due: [String] = []
        var backingOff: [String: SyncError] = [:]
        for id in channelIDs {
            if backoff.isDue(id, at: now) { due.append(id) } else { backingOff[id] = lastErrors[id] ?? .cancelled }
        }
        return .fetch(due: due, backingOff: backingOff)
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
