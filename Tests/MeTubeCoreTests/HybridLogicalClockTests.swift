import Testing
@testable import MeTubeCore

@Suite struct HybridLogicalClockTests {
    @Test func readingsNeverGoBackwardsWhenTheWallClockDoes() {
        let wall = WallClockStub(values: [1_000, 900, 900, 1_100])
        var clock = HybridLogicalClock(wallClock: wall.next)
        let readings = (0..<4).map { _ in clock.now() }
        #expect(readings == [
            HybridTimestamp(millis: 1_000, counter: 0), HybridTimestamp(millis: 1_000, counter: 1),
            HybridTimestamp(millis: 1_000, counter: 2), HybridTimestamp(millis: 1_100, counter: 0),
        ])
    }

    @Test func aReadingObservedFromAheadOrdersLaterLocalEditsAfterIt() {
        var clock = HybridLogicalClock(wallClock: { 1_000 })
        let remote = HybridTimestamp(millis: 86_401_000, counter: 3)
        clock.observe(remote)
        #expect(clock.now() > remote)
    }

    @Test func wireFormRoundTrips() {
        let reading = HybridTimestamp(millis: 1_732_000_000_123, counter: 7)
        #expect(HybridTimestamp(reading.description) == reading)
        #expect(HybridTimestamp("garbage") == nil)
    }
}

/// Hands out wall-clock readings from a list, the last one forever after.
final class WallClockStub: Sendable {
    private let values: [Int64]
    private let index = Mutex(0)
    init(values: [Int64]) { self.values = values }
    var next: @Sendable () -> Int64 {
        { [self] in index.withLock { i in defer { i += 1 }; return values[min(i, values.count - 1)] } }
    }
}

import Synchronization
