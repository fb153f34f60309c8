import Foundation
import MeTubeSync
import Testing
@testable import MeTubeTUI

@Suite("Sync events on the status line")
struct SyncEventBridgeTests {
    let now = Fixture.now

    @Test("a run shows syncing with its progress, then synced; the store is reloaded")
    func successfulRun() {
        var bridge = SyncEventBridge(hasMarkSync: true)
        #expect(bridge.translate(.started(.hub), now: now) == [.service(.videoSource, .syncing(progress: "syncing"))])
        #expect(bridge.translate(.progress(.hub, "page 3, 1,200 new"), now: now) == [.service(.videoSource, .syncing(progress: "page 3, 1,200 new"))])
        var report = SyncReport(source: .hub)
        report.markSync = MarkSync.Report()
        #expect(bridge.translate(.finished(report), now: now) == [
            .storeChanged, .service(.videoSource, .idle(lastSynced: now)), .service(.markSyncService, .idle(lastSynced: now)), .statusesKnown(true),
        ])
    }

    @Test("offline stays offline through a failed run, with the error shown")
    func offlineRun() {
        var bridge = SyncEventBridge(hasMarkSync: false, lastSynced: now.addingTimeInterval(-600))
        let since = now.addingTimeInterval(-60)
        #expect(bridge.translate(.health(.videoSource, .offline(.init(since: since))), now: now) == [.service(.videoSource, .offline(.init(since: since)))])
        var report = SyncReport(source: .hub)
        report.error = .connection("connection refused")
        #expect(bridge.translate(.finished(report), now: now) == [
            .storeChanged, .service(.videoSource, .offline(.init(since: since))), .message("hub sync failed: cannot reach the server: connection refused", isError: true),
        ])
        #expect(bridge.translate(.health(.videoSource, .offline(.init(since: since, probing: true))), now: now) == [.service(.videoSource, .offline(.init(since: since, probing: true)))])
        #expect(bridge.translate(.health(.videoSource, .online), now: now) == [.service(.videoSource, .idle(lastSynced: now.addingTimeInterval(-600)))])
    }

    @Test("a status sync failure is an error message; statuses stay unknown")
    func markSyncFailure() {
        var bridge = SyncEventBridge(hasMarkSync: true)
        var report = SyncReport(source: .hub)
        report.markSyncError = .markSync(.unreadable(httpStatus: 401, "unauthorized"))
        let events = bridge.translate(.finished(report), now: now)
        #expect(events.contains(.message("status sync failed: status server answered 401 with an unreadable body: unauthorized", isError: true)))
        #expect(!events.contains(.statusesKnown(true)))
    }

    @Test("a marks-only run touches only the status service; offline shows on it without an error message")
    func markSyncOnlyRun() {
        var bridge = SyncEventBridge(hasMarkSync: true)
        let since = now.addingTimeInterval(-30)
        #expect(bridge.translate(.markSyncStarted, now: now) == [.service(.markSyncService, .syncing(progress: "syncing"))])
        #expect(bridge.translate(.health(.markSyncService, .offline(.init(since: since))), now: now) == [.service(.markSyncService, .offline(.init(since: since)))])
        var failed = SyncReport(source: .hub)
        failed.includesVideos = false
        failed.markSyncError = .markSync(.unreachable("connection refused"))
        #expect(bridge.translate(.finished(failed), now: now) == [.storeChanged, .service(.markSyncService, .offline(.init(since: since)))])
        #expect(bridge.translate(.health(.markSyncService, .online), now: now) == [.service(.markSyncService, .idle(lastSynced: nil))])
        var succeeded = SyncReport(source: .hub)
        succeeded.includesVideos = false
        succeeded.markSync = MarkSync.Report()
        #expect(bridge.translate(.finished(succeeded), now: now) == [.storeChanged, .service(.markSyncService, .idle(lastSynced: now)), .statusesKnown(true)])
    }
}

@Suite("Failing channels and cancelled runs on the status line")
struct SyncEventBridgeFailingChannelTests {
    let now = Fixture.now

    /// A direct-mode report of `channels` feeds of which `failing` failed with `error`.
    private func directReport(channels: Int, failing: Int, error: SyncError = .http(status: 500, message: "", retryAfter: nil)) -> SyncReport {
        var report = SyncReport(source: .direct)
        report.requests = channels
        for index in 0..<failing { report.failedChannels["UC\(index)"] = error }
        return report
    }

    @Test("a run in which every channel failed is not a sync: the line counts the failures and keeps the last sync")
    func everyChannelFailed() {
        let earlier = now.addingTimeInterval(-7_200)
        var bridge = SyncEventBridge(hasMarkSync: false, lastSynced: earlier)
        #expect(bridge.translate(.finished(directReport(channels: 216, failing: 216)), now: now) == [
            .storeChanged, .service(.videoSource, .failing(failing: 216, channels: 216, lastSynced: earlier)),
            .message("youtube sync: all 216 channels failing", isError: true),
        ])
    }

    @Test("every channel unreachable shows offline, with the count in the message")
    func everyChannelUnreachable() {
        let since = now.addingTimeInterval(-5)
        var bridge = SyncEventBridge(hasMarkSync: false)
        _ = bridge.translate(.health(.videoSource, .offline(.init(since: since))), now: now)
        #expect(bridge.translate(.finished(directReport(channels: 3, failing: 3, error: .connection("refused"))), now: now) == [
            .storeChanged, .service(.videoSource, .offline(.init(since: since))), .message("youtube sync: all 3 channels failing", isError: true),
        ])
    }

    @Test("a partial run is a sync, and the line says how many channels fail")
    func partialRun() {
        var bridge = SyncEventBridge(hasMarkSync: false)
        #expect(bridge.translate(.finished(directReport(channels: 216, failing: 3)), now: now) == [
            .storeChanged, .service(.videoSource, .failing(failing: 3, channels: 216, lastSynced: now)),
            .message("youtube sync: 3 of 216 channels failing", isError: true),
        ])
        #expect(ServiceState.failing(failing: 3, channels: 216, lastSynced: now).text(now: now, timeZone: .gmt) == "3 of 216 channels failing, synced just now")
    }

    @Test("a cancelled run is not a sync, and a cancelled status part does not leave the line syncing")
    func cancelledRun() {
        let earlier = now.addingTimeInterval(-600)
        var bridge = SyncEventBridge(hasMarkSync: true, lastSynced: earlier, lastMarkSynced: earlier)
        _ = bridge.translate(.markSyncStarted, now: now)
        var report = SyncReport(source: .hub)
        report.cancelled = true
        #expect(bridge.translate(.finished(report), now: now) == [
            .storeChanged, .service(.videoSource, .idle(lastSynced: earlier)), .service(.markSyncService, .idle(lastSynced: earlier)),
        ])
    }
}

@Suite("The video source on the status line")
struct VideoSourceStatusLineTests {
    @Test("direct mode is named youtube, with its failing channels counted")
    func directModeIsNamedYouTube() {
        var model = Fixture.model(size: TerminalSize(width: 140, height: 12))
        model.videoSourceName = SyncSource.direct.displayName
        _ = model.apply(.sync(.service(.videoSource, .failing(failing: 3, channels: 216, lastSynced: Fixture.now.addingTimeInterval(-120)))))
        #expect(ScreenRenderer.render(model).text(ofRow: 10).contains("│ youtube: 3 of 216 channels failing, synced 2 min ago │"))
        _ = model.apply(.sync(.service(.videoSource, .offline(.init(since: Fixture.now.addingTimeInterval(-3_600), probing: true)))))
        #expect(ScreenRenderer.render(model).text(ofRow: 10).contains("│ youtube: offline since 13:13, checking │"))
    }
}
