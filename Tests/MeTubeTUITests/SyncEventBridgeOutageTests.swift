import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubeSync
@testable import MeTubeTUI
import Testing

@Suite("A whole feed outage on the status line")
struct SyncEventBridgeOutageTests {
    let now = Fixture.now

    @Test("the outage is said once, stays on the status line through probes, and its end is said once")
    func outageSaidOnce() {
        var bridge = SyncEventBridge(hasMarkSync: false)
        let outage = SourceOutage(since: now.addingTimeInterval(-120), reason: "HTTP 404")
        var began = SyncReport(source: .direct)
        began.requests = 24
        began.sourceOutage = outage
        began.outageBegan = true
        #expect(bridge.translate(.finished(began), now: now) == [
            .storeChanged, .service(.videoSource, .outage(outage)), .message(outage.message(now: now), isError: true),
        ])
        #expect(bridge.translate(.health(.videoSource, .offline(.init(since: now))), now: now) == [.service(.videoSource, .outage(outage))])
        #expect(bridge.translate(.health(.videoSource, .offline(.init(since: now, probing: true))), now: now) == [.service(.videoSource, .outage(outage))])
        var probe = SyncReport(source: .direct)
        probe.requests = 1
        probe.sourceOutage = outage
        #expect(bridge.translate(.finished(probe), now: now) == [.storeChanged, .service(.videoSource, .outage(outage))])

        _ = bridge.translate(.health(.videoSource, .online), now: now)
        var recovered = SyncReport(source: .direct)
        recovered.requests = 2_000
        recovered.outageEnded = outage
        #expect(bridge.translate(.finished(recovered), now: now) == [
            .storeChanged, .service(.videoSource, .idle(lastSynced: now)), .message(outage.endMessage(now: now), isError: false),
        ])
    }

    @Test("the status line names the outage")
    func statusLineText() {
        let zone = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let since = calendar.date(from: DateComponents(year: 2026, month: 11, day: 26, hour: 14, minute: 2))!
        let state = ServiceState.outage(SourceOutage(since: since, reason: "HTTP 404"))
        #expect(state.text(now: since.addingTimeInterval(60), timeZone: zone) == "feeds failing for every channel since 14:02 (HTTP 404)")
    }

    @Test("the status line names the source once before the outage")
    func statusLineNamesSourceOnce() {
        var model = Fixture.model()
        model.videoSourceName = "youtube"
        _ = model.apply(.resized(TerminalSize(width: 160, height: 12)))
        _ = model.apply(.sync(.service(.videoSource, .outage(SourceOutage(since: now.addingTimeInterval(-120), reason: "HTTP 404")))))
        let line = ScreenRenderer.render(model).text(ofRow: 10)
        #expect(line.contains("│ youtube: feeds failing for every channel since "))
        #expect(!line.contains("youtube: youtube:"))
    }
}
