import Foundation
import MeTubeSync
import Testing
@testable import MeTubeTUI

@Suite("Sync events on the status line")
struct SyncEventBridgeTests {
    let now = Fixture.now

    @Test("a run shows syncing with its progress, then synced; the store is reloaded")
    func successfulRun() {
        var bridge = SyncEventBridge(hasStatusSync: true)
        #expect(bridge.translate(.started(.hub), now: now) == [.service(.hub, .syncing(progress: "syncing"))])
        #expect(bridge.translate(.progress(.hub, "page 3, 1,200 new"), now: now) == [.service(.hub, .syncing(progress: "page 3, 1,200 new"))])
        var report = SyncReport(source: .hub)
        report.status = StatusSync.Report()
        #expect(bridge.translate(.finished(report), now: now) == [
            .storeChanged, .service(.hub, .idle(lastSynced: now)), .service(.status, .idle(lastSynced: now)), .statusesKnown(true),
        ])
    }

    @Test("offline stays offline through a failed run, with the error shown")
    func offlineRun() {
        var bridge = SyncEventBridge(hasStatusSync: false, lastSynced: now.addingTimeInterval(-600))
        let since = now.addingTimeInterval(-60)
        #expect(bridge.translate(.connectivity(.offline(since: since)), now: now) == [.service(.hub, .offline(since: since))])
        var report = SyncReport(source: .hub)
        report.error = "connection refused"
        #expect(bridge.translate(.finished(report), now: now) == [
            .storeChanged, .service(.hub, .offline(since: since)), .message("sync failed: connection refused", isError: true),
        ])
        #expect(bridge.translate(.connectivity(.online), now: now) == [.service(.hub, .idle(lastSynced: now.addingTimeInterval(-600)))])
    }

    @Test("a status sync failure is an error message; statuses stay unknown")
    func statusFailure() {
        var bridge = SyncEventBridge(hasStatusSync: true)
        var report = SyncReport(source: .hub)
        report.statusError = "unauthorized"
        let events = bridge.translate(.finished(report), now: now)
        #expect(events.contains(.message("status sync failed: unauthorized", isError: true)))
        #expect(!events.contains(.statusesKnown(true)))
    }

    @Test("a marks-only run touches only the status service; offline shows on it without an error message")
    func statusOnlyRun() {
        var bridge = SyncEventBridge(hasStatusSync: true)
        let since = now.addingTimeInterval(-30)
        #expect(bridge.translate(.statusStarted, now: now) == [.service(.status, .syncing(progress: "syncing"))])
        #expect(bridge.translate(.statusConnectivity(.offline(since: since)), now: now) == [.service(.status, .offline(since: since))])
        var failed = SyncReport(source: .hub)
        failed.includesVideos = false
        failed.statusError = "status server unreachable"
        #expect(bridge.translate(.finished(failed), now: now) == [.storeChanged, .service(.status, .offline(since: since))])
        #expect(bridge.translate(.statusConnectivity(.online), now: now) == [.service(.status, .idle(lastSynced: nil))])
        var succeeded = SyncReport(source: .hub)
        succeeded.includesVideos = false
        succeeded.status = StatusSync.Report()
        #expect(bridge.translate(.finished(succeeded), now: now) == [.storeChanged, .service(.status, .idle(lastSynced: now)), .statusesKnown(true)])
    }
}
