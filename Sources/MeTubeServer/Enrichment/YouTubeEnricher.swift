import Foundation
import Logging
import MeTubeYouTube
import ServiceLifecycle

/// Fills in what Atom feeds lack through the YouTube Data API: each video's duration and whether
/// it can be watched (`videos.list`: `contentDetails.duration`, and the ``LiveStreamingState``
/// of `snippet`, `liveStreamingDetails` and `status`) and each channel's title and thumbnail
/// (`channels.list`, `snippet`), 50 ids a call.
///
/// It runs beside ingestion and never holds it up: ingestion only wakes it. Every call costs one
/// unit of a daily budget kept in the database per UTC day; when the budget is spent, or the API
/// answers `quotaExceeded`, it pauses until the next UTC day, and says so in the log. Other
/// failures (network, HTTP status, malformed answers) are logged and retried after a backoff.
/// A video the API does not return, or returns without a usable duration (live, upcoming,
/// absurd), is looked up again after 12 hours, three times at most. Upcoming and live videos are
/// asked about again when ``AvailabilityRecheck`` says, from the same budget, after new videos.
actor YouTubeEnricher: Service {
    /// What one pass did.
    struct Pass: Sendable, Equatable {
        /// API calls made (units spent).
        var calls = 0
        /// Videos that got a duration.
        var durations = 0
        /// Durations refused as unreadable or absurd.
        var rejected = 0
        /// Videos whose availability or scheduled start changed.
        var availabilityChanges = 0
        /// Channels looked up.
        var channels = 0
        /// Whether the pass stopped because the day's quota is spent.
        var paused = false
        /// Whether the pass stopped at a failure.
        var failed = false
    }

    /// The most calls in one pass; more work waits for the next.
    static let maxCallsPerPass = 40
    static let maxVideoAttempts = 3
    static let videoRecheckDelay: Duration = .seconds(12 * 3600)
    static let channelRetryDelay: Duration = .seconds(86_400)
    static let channelRefreshDelay: Duration = .seconds(30 * 86_400)
    static let maxBackoff: Duration = .seconds(3600)

    private let api: YouTubeDataAPI
    /// The units the enrichment may spend per UTC day.
    private let dailyUnits: Int
    /// The longest the enrichment sleeps when no ingestion wakes it.
    private let idleInterval: Duration
    private let repository: any EnrichmentRepository
    private let logger: Logger
    /// Wakes the loop: ingestion stored new videos.
    let signal: WakeSignal
    private var consecutiveFailures = 0
    private var retryAt: ContinuousClock.Instant?
    /// The UTC day whose quota is spent, while paused.
    private var pausedDay: String?
    private var lastCleanup: ContinuousClock.Instant?
    /// The time that decides what is due (a test's clock moves on by days).
    private let now: @Sendable () -> Date

    init(api: YouTubeDataAPI, dailyUnits: Int = YouTubeAPIConfiguration.defaultDailyUnits, idleInterval: Duration = .seconds(300),
         repository: any EnrichmentRepository, signal: WakeSignal, logger: Logger, now: @escaping @Sendable () -> Date = Date.init) {
        self.api = api
        self.dailyUnits = dailyUnits
        self.idleInterval = idleInterval
        self.repository = repository
        self.signal = signal
        self.logger = logger
        self.now = now
    }

    /// Enriches until the service group shuts down.
    func run() async throws {
        logger.info("YouTube Data API enrichment on", metadata: ["dailyUnits": "\(dailyUnits)"])
        await cancelWhenGracefulShutdown { await self.loop() }
    }

    private func loop() async {
        while !Task.isCancelled {
            _ = await pass()
            await signal.wait(timeout: nextWait())
        }
    }

    /// How long to rest: until the backoff ends, the next UTC day when paused, else the idle interval.
    private func nextWait() -> Duration {
        var wait = idleInterval
        if let retryAt { wait = min(wait, max(.zero, retryAt - .now)) }
        if pausedDay != nil {
            let untilTomorrow = UTCDay.nextStart(after: Date()).timeIntervalSinceNow
            wait = .milliseconds(Int64(max(1, untilTomorrow) * 1000))
        }
        return wait
    }

    /// Looks up what is due now, within the day's budget; skipped while backing off.
    func pass() async -> Pass {
        var pass = Pass()
        if let retryAt, retryAt > .now { return pass }
        do {
            try await enrichVideos(&pass)
            if !pass.paused, !pass.failed { try await recheckAvailability(&pass) }
            if !pass.paused, !pass.failed { try await enrichChannels(&pass) }
            if !pass.failed {
                consecutiveFailures = 0
                retryAt = nil
            }
            try await cleanUpNow()
        } catch {
            pass.failed = true
            fail(error)
        }
        if pass.calls > 0 {
            let day = UTCDay.string(Date())
            let usage = (try? await repository.quotaUsage(day: day))?.used ?? 0
            logger.info("YouTube Data API enrichment", metadata: [
                "calls": "\(pass.calls)", "durations": "\(pass.durations)", "rejected": "\(pass.rejected)", "availability": "\(pass.availabilityChanges)",
                "channels": "\(pass.channels)", "unitsToday": "\(usage)", "dailyUnits": "\(dailyUnits)",
            ])
        }
        return pass
    }

    private func enrichVideos(_ pass: inout Pass) async throws {
        while pass.calls < Self.maxCallsPerPass {
            let now = now().millisecondsSince1970
            let ids = try await repository.videosToEnrich(
                recheckBefore: now - Self.videoRecheckDelay.wholeMilliseconds, maxAttempts: Self.maxVideoAttempts, limit: YouTubeDataAPI.maxIDsPerCall)
            guard !ids.isEmpty, try await lookUp(ids, &pass), ids.count == YouTubeDataAPI.maxIDsPerCall else { return }
        }
    }

    /// Asks again about the upcoming, live and just-gone videos whose re-check is due.
    private func recheckAvailability(_ pass: inout Pass) async throws {
        while pass.calls < Self.maxCallsPerPass {
            let ids = try await repository.availabilityRechecksDue(now: now().millisecondsSince1970, limit: YouTubeDataAPI.maxIDsPerCall)
            guard !ids.isEmpty, try await lookUp(ids, &pass), ids.count == YouTubeDataAPI.maxIDsPerCall else { return }
        }
    }

    /// One `videos.list` call for `ids`: stores the durations and availability found (an id the
    /// answer leaves out is gone); false when the pass stopped (budget spent, failure).
    private func lookUp(_ ids: [String], _ pass: inout Pass) async throws -> Bool {
        guard try await spendUnit(&pass) else { return false }
        let answer: [String: YouTubeDataAPI.VideoDetails]
        do {
            answer = try await api.videoDetails(ids)
        } catch {
            try await handle(error, &pass)
            return false
        }
        var durations: [String: Int] = [:]
        var states: [String: LiveStreamingState] = [:]
        for id in ids {
            guard let found = answer[id] else {
                states[id] = .gone
                continue
            }
            states[id] = LiveStreamingState(found, now: now())
            guard let text = found.duration else { continue }
            if let seconds = ISO8601Duration.seconds(text) {
                durations[id] = seconds
            } else if text != "P0D" {
                pass.rejected += 1
                logger.debug("unusable duration from the YouTube Data API", metadata: ["video": "\(id)", "duration": "\(text.prefix(64))"])
            }
        }
        let checkedAt = now().millisecondsSince1970
        pass.durations += try await repository.recordVideoLookup(checked: ids, durations: durations, now: checkedAt)
        pass.availabilityChanges += try await repository.recordAvailability(states, now: checkedAt)
        return true
    }

    private func enrichChannels(_ pass: inout Pass) async throws {
        while pass.calls < Self.maxCallsPerPass {
            let now = WebSubService.millisecondsNow()
            let ids = try await repository.channelsToEnrich(
                retryBefore: now - Self.channelRetryDelay.wholeMilliseconds, refreshBefore: now - Self.channelRefreshDelay.wholeMilliseconds,
                limit: YouTubeDataAPI.maxIDsPerCall)
            guard !ids.isEmpty, try await spendUnit(&pass) else { return }
            let details: [String: YouTubeChannelDetails]
            do {
                details = try await api.channelDetails(ids).mapValues(IngestScreen.channelDetails)
            } catch {
                try await handle(error, &pass)
                return
            }
            try await repository.recordChannelLookup(checked: ids, details: details, now: WebSubService.millisecondsNow())
            pass.channels += details.count
            guard ids.count == YouTubeDataAPI.maxIDsPerCall else { return }
        }
    }

    /// Spends one unit of today's budget; false, with the pass paused, when it is spent.
    private func spendUnit(_ pass: inout Pass) async throws -> Bool {
        let today = Date()
        let day = UTCDay.string(today)
        let forget = UTCDay.string(today.addingTimeInterval(-30 * 86_400))
        guard try await repository.spend(units: 1, day: day, dailyUnits: dailyUnits, forgetBefore: forget) else {
            pause(day: day, reason: "the daily budget of \(dailyUnits) units is spent")
            pass.paused = true
            return false
        }
        if let pausedDay, pausedDay != day {
            logger.info("YouTube Data API enrichment resumed", metadata: ["day": "\(day)"])
            self.pausedDay = nil
        }
        pass.calls += 1
        return true
    }

    /// Pauses on `quotaExceeded`; records any other failure for the backoff.
    private func handle(_ error: any Error, _ pass: inout Pass) async throws {
        if case YouTubeError.quotaExceeded = error {
            let day = UTCDay.string(Date())
            try await repository.markQuotaExceeded(day: day)
            pause(day: day, reason: "the API answered quotaExceeded")
            pass.paused = true
        } else {
            pass.failed = true
            fail(error)
        }
    }

    private func pause(day: String, reason: String) {
        guard pausedDay != day else { return }
        pausedDay = day
        logger.warning("YouTube Data API quota spent; enrichment paused until the next UTC day", metadata: ["day": "\(day)", "reason": "\(reason)"])
    }

    private func fail(_ error: any Error) {
        consecutiveFailures += 1
        let delay = min(Self.maxBackoff, .seconds(30) * (1 << min(consecutiveFailures - 1, 16)))
        retryAt = .now + delay
        logger.warning("YouTube Data API enrichment failed; retrying later", metadata: [
            "error": "\(error)", "failures": "\(consecutiveFailures)", "retryIn": "\(delay)",
        ])
    }

    /// Forgets the lookups of trimmed videos, at most once an hour.
    private func cleanUpNow() async throws {
        if let lastCleanup, ContinuousClock.now - lastCleanup < .seconds(3600) { return }
        lastCleanup = .now
        try await repository.forgetRemovedVideos()
    }
}

/// UTC calendar days, the unit of the Data API quota here.
enum UTCDay {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        return calendar
    }()

    /// `date`'s UTC day as `yyyy-MM-dd`.
    static func string(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The start of the UTC day after `date`'s.
    static func nextStart(after date: Date) -> Date {
        calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: date)) ?? date.addingTimeInterval(86_400)
    }
}
