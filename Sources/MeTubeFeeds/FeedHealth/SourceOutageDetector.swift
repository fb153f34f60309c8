import Foundation
import MeTubeCore

/// Tells a whole feed source failing from channels failing one by one: when, among the fetches
/// of the last ``window``, at least ``minimumSample`` ended, ``outageShare`` of them failed, and
/// the failures came from at least ``outageShare`` of ``minimumSample`` different channels (so
/// two dead channels of three, fetched again and again, are not the source), the source is down.
/// It then says so once, and the poller stops fetching channel by channel and probes one feed at
/// a time, at ``probeSteps`` (the last repeating, never sooner than the
/// server's `Retry-After`), until one answers: the outage ends, once, and a complete round
/// follows.
public struct SourceOutageDetector: Sendable {
    /// What a recorded fetch changed.
    public enum Change: Sendable, Equatable {
        /// The source is failing as a whole, from now on.
        case began(SourceOutage)
        /// The source answers again after that outage.
        case ended(SourceOutage)
    }

    /// How far back fetches count, unless ``span`` says longer.
    public static let window = Duration.seconds(60)
    /// The share of the fetches in the window that must have failed.
    public static let outageShare = 0.8
    /// The most fetches kept for the window.
    static let maxKept = 512

    /// The waits between probes during an outage (the last one repeats).
    public var probeSteps: [Duration]
    /// How many channels the source serves now (the fewest fetches that can show an outage
    /// depend on it).
    public var channelCount = 0
    /// How far back fetches count now: ``window``, or longer while fetches are spread out so
    /// that fewer than ``minimumSample`` of them fall within it.
    public var span = Self.window
    /// The outage in progress, if any.
    public private(set) var outage: SourceOutage?
    /// When the next probe is due during an outage (a ``FeedClock`` reading).
    public private(set) var nextProbe = Duration.zero
    private var probes = 0
    private var recent: [(at: Duration, date: Date, channelID: String, failure: FeedFailure?)] = []

    /// A detector probing at `probeSteps` during an outage.
    public init(probeSteps: [Duration] = [.seconds(5), .seconds(10), .seconds(20)]) {
        self.probeSteps = probeSteps.isEmpty ? [.seconds(20)] : probeSteps
    }

    /// The fewest fetches in the window that can show an outage: 20, or every channel when
    /// there are fewer; a source with fewer than 3 channels never counts as down as a whole.
    public var minimumSample: Int { channelCount < 3 ? Int.max : min(20, channelCount) }

    /// Whether a probe is due at `now` (always false outside an outage).
    public func probeIsDue(at now: Duration) -> Bool { outage != nil && nextProbe <= now }

    /// Records one fetch of `channelID` that ended at `now` (a ``FeedClock`` reading) and `date`
    /// (the wall time), with its failure or nil for an answer; returns the change it made, if any.
    public mutating func record(_ failure: FeedFailure?, of channelID: String, at now: Duration, date: Date) -> Change? {
        if let outage {
            guard failure != nil else {
                self.outage = nil
                recent.removeAll()
                probes = 0
                return .ended(outage)
            }
            return nil
        }
        recent.append((now, date, channelID, failure))
        recent.removeFirst(recent.prefix { now - $0.at > span }.count)
        if recent.count > Self.maxKept { recent.removeFirst(recent.count - Self.maxKept) }
        let failures = recent.compactMap(\.failure)
        guard recent.count >= minimumSample, Double(failures.count) >= Self.outageShare * Double(recent.count),
              Double(Set(recent.filter { $0.failure != nil }.map(\.channelID)).count) >= Self.outageShare * Double(minimumSample)
        else { return nil }
        let reasons = Dictionary(grouping: failures, by: \.summary)
        let reason = reasons.max { ($0.value.count, $1.key) < ($1.value.count, $0.key) }?.key ?? "failing"
        let outage = SourceOutage(since: recent.first { $0.failure != nil }?.date ?? date, reason: reason)
        self.outage = outage
        probes = 0
        scheduleProbe(after: failures.last, at: now)
        return .began(outage)
    }

    /// Takes up an outage an earlier run found, probing next at `nextProbe`.
    public mutating func restore(_ outage: SourceOutage, nextProbe: Duration) {
        self.outage = outage
        self.nextProbe = nextProbe
        probes = 0
        recent.removeAll()
    }

    /// Records a probe that failed at `now`: the next one waits one step longer (or the
    /// server's `Retry-After`).
    public mutating func probeFailed(_ failure: FeedFailure, at now: Duration) {
        guard outage != nil else { return }
        probes += 1
        scheduleProbe(after: failure, at: now)
    }

    private mutating func scheduleProbe(after failure: FeedFailure?, at now: Duration) {
        let step = probeSteps[min(probes, probeSteps.count - 1)]
        nextProbe = now + max(step, min(failure?.retryAfter ?? .zero, RetryAfter.limit))
    }
}
