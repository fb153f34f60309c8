import Clocks
import Foundation
import MeTubeCore
import MeTubeDemo
import MeTubeFeeds
import Testing

@Suite struct FeedHealthTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func retryAfterReadsSecondsAndHTTPDatesAndBoundsHostileValues() {
        #expect(RetryAfter.parse("120", now: Self.now) == .seconds(120))
        #expect(RetryAfter.parse(" 1.5 ", now: Self.now) == .milliseconds(1500))
        let inTwoMinutes = Self.now.addingTimeInterval(120)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(RetryAfter.parse(formatter.string(from: inTwoMinutes), now: Self.now) == .seconds(120))
        // Hostile: a year far away, a huge number, a negative one, a date in the past, junk
        #expect(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", now: Self.now) == RetryAfter.limit)
        #expect(RetryAfter.parse("1e300", now: Self.now) == RetryAfter.limit)
        #expect(RetryAfter.parse("-5", now: Self.now) == .zero)
        #expect(RetryAfter.parse("Thu, 01 Jan 1970 00:00:00 GMT", now: Self.now) == .zero)
        #expect(RetryAfter.parse("nan", now: Self.now) == nil)
        #expect(RetryAfter.parse("soon", now: Self.now) == nil)
        #expect(RetryAfter.parse(String(repeating: "9", count: 100), now: Self.now) == nil)
        #expect(RetryAfter.parse(nil, now: Self.now) == nil)
    }

    @Test func backoffDoublesWithJitterUpToItsLimitAndHonoursRetryAfter() {
        var backoff = FeedBackoff(firstStep: .seconds(60), maxStep: .seconds(600), jitter: 0.25, seed: 7)
        let notFound = FeedFailure(status: 404)
        var waits: [Duration] = []
        for _ in 0..<6 { waits.append(backoff.failed("UCa", notFound, at: .zero)) }
        for (step, wait) in zip([60, 120, 240, 480, 600, 600], waits) {
            #expect(wait >= .seconds(step) && wait <= .seconds(Double(step) * 1.25), "step \(step): \(wait)")
        }
        #expect(!backoff.isDue("UCa", at: .seconds(599)))
        #expect(backoff.isDue("UCb", at: .zero))

        // A Retry-After longer than the step wins, but never more than a day
        let limited = FeedFailure(status: 429, retryAfter: .seconds(3600))
        #expect(backoff.failed("UCc", limited, at: .zero) == .seconds(3600))
        let hostile = FeedFailure(status: 503, retryAfter: .seconds(10 * 86_400))
        #expect(backoff.failed("UCd", hostile, at: .zero) == RetryAfter.limit)

        // A success forgets the channel
        backoff.succeeded("UCa")
        #expect(backoff.isDue("UCa", at: .zero))
        #expect(backoff.failures(of: "UCa") == 0)
    }

    @Test func jitterSpreadsChannelsThatFailedTogether() {
        var backoff = FeedBackoff(firstStep: .seconds(60), seed: 1)
        let waits = Set((0..<50).map { backoff.failed("UC\($0)", FeedFailure(status: 500), at: .zero) })
        #expect(waits.count > 40)
    }

    @Test func rateLimiterSpacesRequestsOnATestClock() async throws {
        let clock = TestClock()
        let limiter = FeedRateLimiter(rate: 2, clock: FeedClock(clock))
        let granted = GrantCount()
        let (grants, grantSink) = AsyncStream.makeStream(of: Void.self)
        let requests = Task {
            for _ in 0..<3 {
                try await limiter.acquire()
                await granted.add()
                grantSink.yield()
            }
        }
        var nextGrant = grants.makeAsyncIterator()
        await clock.advance(by: .zero)
        _ = await nextGrant.next()
        await clock.advance(by: .milliseconds(499))
        #expect(await granted.value == 1)
        await clock.advance(by: .milliseconds(1))
        _ = await nextGrant.next()
        #expect(await granted.value == 2)
        await clock.advance(by: .milliseconds(500))
        try await requests.value
        #expect(await granted.value == 3)
    }

    @Test func mostChannelsFailingWithinAMinuteIsOneOutageSaidOnce() {
        var detector = SourceOutageDetector()
        detector.channelCount = 2_000
        var changes: [SourceOutageDetector.Change] = []
        for index in 0..<2_000 {
            let date = Self.now.addingTimeInterval(Double(index) / 100)
            if let change = detector.record(FeedFailure(status: 404), of: DemoCatalog.channelID(index), at: .milliseconds(index * 10), date: date) { changes.append(change) }
        }
        #expect(changes == [.began(SourceOutage(since: Self.now, reason: "HTTP 404"))])
        #expect(detector.probeIsDue(at: .seconds(20) + .seconds(5)))
        #expect(!detector.probeIsDue(at: .milliseconds(190)))

        // A failed probe waits one step longer; an answer ends the outage, once
        detector.probeFailed(FeedFailure(status: 404), at: .seconds(30))
        #expect(!detector.probeIsDue(at: .seconds(39)))
        #expect(detector.probeIsDue(at: .seconds(40)))
        #expect(detector.record(nil, of: DemoCatalog.channelID(1), at: .seconds(40), date: Self.now) == .ended(SourceOutage(since: Self.now, reason: "HTTP 404")))
        #expect(detector.outage == nil)
        #expect(detector.record(nil, of: DemoCatalog.channelID(1), at: .seconds(41), date: Self.now) == nil)
    }

    @Test func someChannelsFailingIsNoOutage() {
        var detector = SourceOutageDetector()
        detector.channelCount = 500
        for index in 0..<500 {
            let failure = index % 3 == 0 ? FeedFailure(status: 404) : nil
            #expect(detector.record(failure, of: DemoCatalog.channelID(index), at: .milliseconds(index * 10), date: Self.now) == nil)
        }
        // Failures spread over more than a minute do not add up either
        var slow = SourceOutageDetector()
        slow.channelCount = 500
        for index in 0..<40 {
            let failure = index % 2 == 0 ? FeedFailure(status: 500) : nil
            #expect(slow.record(failure, of: DemoCatalog.channelID(index), at: .seconds(index * 10), date: Self.now) == nil)
        }
        // Two channels never make a source-wide outage
        var tiny = SourceOutageDetector()
        tiny.channelCount = 2
        #expect(tiny.record(FeedFailure(status: 404), of: DemoCatalog.channelID(1), at: .zero, date: Self.now) == nil)
        #expect(tiny.record(FeedFailure(status: 404), of: DemoCatalog.channelID(2), at: .zero, date: Self.now) == nil)
        // Two dead channels of three, fetched round after round, are not the source failing
        var few = SourceOutageDetector()
        few.channelCount = 3
        for round in 0..<5 {
            for number in 0..<3 {
                let failure = number == 0 ? nil : FeedFailure(status: 404)
                #expect(few.record(failure, of: DemoCatalog.channelID(number), at: .seconds(round), date: Self.now) == nil, "round \(round)")
            }
        }
    }

    @Test func outageMessagesSayWhenAndWhy() {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let since = calendar.date(from: DateComponents(year: 2026, month: 11, day: 26, hour: 14, minute: 2))!
        let outage = SourceOutage(since: since, reason: "HTTP 404")
        #expect(outage.message(now: since.addingTimeInterval(600), timeZone: zone) == "youtube: feeds failing for every channel since 14:02 (HTTP 404)")
        #expect(outage.message(now: since.addingTimeInterval(86_400), timeZone: zone) == "youtube: feeds failing for every channel since 2026-11-26 14:02 (HTTP 404)")
        #expect(outage.endMessage(now: since.addingTimeInterval(600), timeZone: zone) == "youtube: feeds answer again (failing since 14:02, HTTP 404)")
        let hostile = SourceOutage(since: since, reason: "HTTP 404\u{1b}[2J\nspoof")
        #expect(!hostile.message(now: since, timeZone: zone).contains("\u{1b}"))
        #expect(!hostile.message(now: since, timeZone: zone).contains("\n"))
    }
}

/// How many requests a limiter let through.
private actor GrantCount {
    private(set) var value = 0
    func add() { value += 1 }
}
