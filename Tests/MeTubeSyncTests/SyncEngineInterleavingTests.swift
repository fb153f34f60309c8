import Foundation
import MeTubeCore
import MeTubeStore
import Synchronization
import Testing
import TestSupport
@testable import MeTubeSync

/// Random interleavings of requests, run completions (successes and failures), cancellations,
/// probe outcomes and timer ticks against one engine each, with a gated fake video source.
@Suite struct SyncEngineInterleavingTests {
    static let scenarios = 1_000
    static let stepsPerScenario = 12

    @Test func noTwoRunsOverlapAndEveryRequestGetsTheFirstRunThatStartedAfterIt() async throws {
        // Given a seed (METUBE_TEST_SEED repeats a run) and one store for every scenario
        let seed = ProcessInfo.processInfo.environment["METUBE_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        print("SyncEngineInterleavingTests seed: \(seed) (METUBE_TEST_SEED=\(seed) repeats it)")
        var random = SplitMix64(seed: seed)
        let directory = TemporaryDirectory("metube-engine-interleavings")
        defer { directory.remove() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store", isDirectory: true))

        for scenario in 0..<Self.scenarios {
            // Given an engine with a periodic sync, probing and a reconnect debounce on a manual clock
            let clock = ManualClock()
            let source = GatedVideoSource()
            let configuration = SyncConfiguration(reconnectDebounce: .seconds(1), probeDelays: [.seconds(2)], hubInterval: .seconds(10), markSyncInterval: nil)
            let engine = SyncEngine(store: store, source: source, configuration: configuration, clock: clock)
            await engine.start()
            var tickets: [(scope: SyncScope, ticket: SyncEngine.RunTicket)] = []
            let reports = ReportsByRequest()

            // When random steps happen
            for _ in 0..<Self.stepsPerScenario {
                switch random.next() % 8 {
                case 0, 1, 2:
                    let scope: SyncScope = random.next() % 3 == 0 ? .markSync : .all
                    let ticket = await engine.request(scope)
                    let index = tickets.count
                    tickets.append((scope, ticket))
                    Task {
                        let report = await ticket.report.value
                        reports.value.withLock { $0[index] = report }
                    }
                case 3: source.finishOne(.success)
                case 4: source.finishOne(.failure(random.next() % 2 == 0 ? .connection("injected") : .http(status: 500, message: "injected", retryAfter: nil)))
                case 5: await engine.cancel()
                case 6: clock.advance(by: .seconds(Int64(random.next() % 11)))
                default: source.probeAnswers.toggle()
                }
                await Self.settle()
            }
            // And every run still waiting is let finish
            var rounds = 0
            while reports.value.withLock({ $0.count }) < tickets.count, rounds < 10_000 {
                source.finishOne(.success)
                await Self.settle()
                rounds += 1
            }

            // Then no two runs were ever in progress at once, and each request got the report of the
            // first run that started after it, covering its scope
            #expect(source.mostActive <= 1, "scenario \(scenario) of seed \(seed): \(source.mostActive) runs overlapped")
            for (index, (scope, ticket)) in tickets.enumerated() {
                let report = try #require(reports.value.withLock { $0[index] }, "scenario \(scenario) of seed \(seed): a request never got a report")
                #expect(report.run == ticket.after + 1, "scenario \(scenario) of seed \(seed): a request made after run \(ticket.after) got run \(report.run)")
                #expect(scope == .markSync || report.includesVideos, "scenario \(scenario) of seed \(seed): a video request got a marks-only run")
            }
            await engine.shutdown()
        }
    }

    /// Lets the engine's tasks run until they wait on something the test controls.
    private static func settle() async {
        for _ in 0..<20 { await Task.yield() }
    }
}

/// The reports requests got so far, by request index.
final class ReportsByRequest: Sendable {
    let value = Mutex<[Int: SyncReport]>([:])
}
