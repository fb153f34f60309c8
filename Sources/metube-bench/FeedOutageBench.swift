import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubeStore
import MeTubeSync
import MeTubeTUI
import Synchronization
import TestSupport

/// A whole-feed outage in direct mode, time-compressed: 2,000 followed channels whose feeds (a
/// loopback ``FailingFeedServer``) all answer 404 for 10 minutes, then return. The direct source
/// runs on a ``SkippingClock``: requests, the rate limit and the final sync take real time, and
/// the idle waits between the engine's probes (5, 10, then every 15 s) are skipped. The TUI's
/// messages are counted by feeding the runs' reports through the real ``SyncEventBridge``.
///
/// Figures: the most requests one channel got in one backoff step (the detecting run, then each
/// probe), the requests over the outage, the user-visible messages, and the time from the feeds'
/// return to a complete sync in the worst case, when they return just after a probe (a whole
/// probe step, the engine's reconnect debounce, and the sync of every channel at the default
/// `[hub] rate`).
func feedOutageFigures() async throws -> [Figure] {
    let channelCount = 2_000
    let directory = TemporaryDirectory("metube-bench-outage")
    defer { directory.remove() }
    let server = await FailingFeedServer.start()
    defer { server.stop() }
    let channels = FailingFeedServer.channelIDs(channelCount).map { Channel(id: $0) }
    let store = try Store.open(at: directory.url.appendingPathComponent("store", isDirectory: true))
    try store.apply(StoreChange(channels: channels))
    let clock = SkippingClock()
    let configuration = SyncConfiguration(source: .direct)
    let source = DirectVideoSource(
        store: store, client: DirectFeedClient(urlTemplate: server.feedURLTemplate), concurrency: configuration.directConcurrency,
        rate: configuration.directRate, clock: FeedClock(clock))
    var bridge = SyncEventBridge(hasMarkSync: false)
    var failureMessages = 0
    var otherMessages = 0
    func show(_ report: SyncReport) {
        for case .message(_, let isError) in bridge.translate(.finished(report)) {
            if isError { failureMessages += 1 } else { otherMessages += 1 }
        }
    }

    server.set(.failing(status: 404))
    let outageLength = Duration.seconds(600)
    var worstStep = 0
    var outageRequests = 0
    func closeStep() {
        worstStep = max(worstStep, server.requests.values.max() ?? 0)
        outageRequests += server.requests.values.reduce(0, +)
        server.resetCounts()
    }
    let detecting = try await source.sync { _ in }
    show(detecting)
    closeStep()
    var probes = 0
    func nextProbeDelay() -> Duration { configuration.outageProbeDelays[min(probes, configuration.outageProbeDelays.count - 1)] }
    while clock.elapsed + nextProbeDelay() < outageLength {
        clock.skip(nextProbeDelay())
        probes += 1
        do {
            try await source.probe()
            throw BenchFailure("a probe passed during the outage")
        } catch let error as SyncError {
            guard case .http(404, _, _) = error else { throw BenchFailure("probe: \(error)") }
        }
        closeStep()
    }

    server.set(.answering)
    let returned = clock.elapsed
    clock.skip(nextProbeDelay())
    try await source.probe()
    clock.skip(configuration.reconnectDebounce)
    let recovery = try await source.sync { _ in }
    show(recovery)
    let recoverySeconds = (clock.elapsed - returned).milliseconds / 1000
    guard recovery.isComplete, recovery.requests == channelCount else { throw BenchFailure("the sync after the outage was not complete: \(recovery)") }

    let detail = "2,000 channels, 404 for 10 min (time-compressed: idle waits skipped), \(probes) probes, rate \(Int(configuration.directRate))/s"
    return [
        Figure(name: "outage.requests-per-channel-per-step", value: Double(worstStep), unit: "req", goal: "<= 1", detail: detail),
        Figure(name: "outage.requests", value: Double(outageRequests), unit: "req", detail: "the detecting run, then one per probe"),
        Figure(name: "outage.failure-messages", value: Double(failureMessages), unit: "messages", goal: "= 1", detail: "error messages the TUI showed over the outage (SyncEventBridge)"),
        Figure(name: "outage.return-messages", value: Double(otherMessages), unit: "messages", goal: "= 1", detail: "the line saying the feeds answer again"),
        Figure(name: "outage.return-to-complete-sync", value: recoverySeconds, unit: "s", goal: "<= 60", detail: "the worst case: the feeds return just after a probe, so a whole probe step (15 s) + reconnect debounce + sync of 2,000 feeds"),
    ]
}

/// A clock that runs in real time, plus whatever ``skip(_:)`` added: idle waits are skipped,
/// work is timed as it happens.
final class SkippingClock: Clock, Sendable {
    typealias Instant = ContinuousClock.Instant
    private let skipped = Mutex(Duration.zero)
    private let start = ContinuousClock.now

    var now: Instant { ContinuousClock.now + skipped.withLock { $0 } }
    var minimumResolution: Duration { ContinuousClock().minimumResolution }
    /// The time since the clock was made, skips included.
    var elapsed: Duration { now - start }

    /// Moves the clock on by `duration` without waiting.
    func skip(_ duration: Duration) { skipped.withLock { $0 += duration } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while now < deadline {
            try await ContinuousClock().sleep(until: ContinuousClock.now + (now.duration(to: deadline)), tolerance: tolerance)
        }
    }
}
