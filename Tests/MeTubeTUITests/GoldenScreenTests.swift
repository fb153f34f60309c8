import Foundation
import MeTubeCore
import Testing
import TestSupport
@testable import MeTubeTUI

/// Golden screens: the fixture drawn at 72×12 (and smaller), compared as text, cell by cell.
@Suite("Golden screens")
struct GoldenScreenTests {
    @Test("the feed in UTF-8: badges, marks, ages, wide titles cut by width, durations")
    func feedUnicode() {
        var model = Fixture.model()
        model.press(.character("f"))
        expectScreen(model, GoldenScreens.feedUnicode)
    }

    @Test("the feed in ASCII: fallback badges and non-ASCII shown as ?")
    func feedASCII() {
        var model = Fixture.model(unicode: false)
        model.press(.character("f"))
        expectScreen(model, GoldenScreens.feedASCII)
    }

    @Test("wide characters take two cells: the right half is a continuation cell")
    func wideCells() {
        var model = Fixture.model()
        model.press(.character("f"))
        let grid = ScreenRenderer.render(model)
        let row = grid.row(2)
        let first = row.firstIndex { $0.character == "東" }!
        #expect(row[first].width == 2)
        #expect(row[first + 1].width == 0)
        #expect(grid.row(1).allSatisfy { $0.inverse })
        #expect(!grid.row(2).contains { $0.inverse })
    }

    @Test("the search prompt shows the text typed and the match count")
    func searchPrompt() {
        var model = Fixture.model()
        model.press(.character("/"))
        model.type("東京")
        let grid = ScreenRenderer.render(model)
        #expect(grid.text(ofRow: 11) == "/東京" + String(repeating: " ", count: 58) + "(1 match)")
    }

    @Test("the channels view")
    func channels() {
        var model = Fixture.model()
        model.press(.character("c"))
        expectScreen(model, GoldenScreens.channels)
    }

    @Test("the channels view shows each channel's tags and, once recorded, its subscription's sync badge")
    func channelsWithTagsAndSyncBadges() {
        var library = Fixture.library
        let tagged = SyntheticLibrary.channelID(1)
        library.upsert(Channel(id: tagged, tags: ["tech", "\u{1b}[31mred"]))
        library.apply(Subscription(channelID: tagged, followed: true, tags: ["tech"], hlc: HybridTimestamp(millis: 1), deviceID: "d", syncState: .pending))
        library.apply(Subscription(channelID: SyntheticLibrary.channelID(3), followed: true, hlc: HybridTimestamp(millis: 1), deviceID: "d", syncState: .synced))
        var model = Fixture.model()
        _ = model.apply(.libraryChanged(library))
        model.press(.character("c"))
        let grid = ScreenRenderer.render(model)
        let rows = (1...3).map { grid.text(ofRow: $0) }
        #expect(rows.contains { $0.contains("↻ Digital Foundry") })
        #expect(rows.contains { $0.contains("✓ Kitchen Synth") })
        #expect(rows.contains { $0.contains("#tech") && !$0.contains("\u{1b}") })
    }

    @Test("the channels view shows each channel's last fetch: ok, or failing since when and why")
    func channelsWithFetchResults() {
        var model = Fixture.model()
        _ = model.apply(.channelFetchesChanged(Fixture.channelFetches))
        model.press(.character("c"))
        expectScreen(model, GoldenScreens.channelsWithFetchResults)
    }

    @Test("the conflicts view shows both values and devices")
    func conflicts() {
        var model = Fixture.model()
        model.press(.character("C"))
        expectScreen(model, GoldenScreens.conflicts)
    }

    @Test("the help screen lists the bindings in force")
    func help() throws {
        var model = Fixture.model(config: try Fixture.config("[keys]\nmove-down = \"j Down C-n\""))
        model.press(.character("?"))
        expectScreen(model, GoldenScreens.help)
    }

    @Test("sync states show in the status line")
    func statusLine() {
        var model = Fixture.model()
        _ = model.apply(.sync(.service(.videoSource, .syncing(progress: "page 3, 1,200 new"))))
        _ = model.apply(.sync(.service(.markSyncService, .offline(.init(since: Fixture.now.addingTimeInterval(-3_600))))))
        let grid = ScreenRenderer.render(model)
        #expect(grid.text(ofRow: 10) == " 4 of 7 │ ✗ 1 pending │ ⚠ 1 conflict │ hub: page 3, 1,200 new │ status:…")
        _ = model.apply(.resized(TerminalSize(width: 120, height: 12)))
        #expect(ScreenRenderer.render(model).text(ofRow: 10).hasSuffix("│ status: offline since 13:13"))
        _ = model.apply(.sync(.service(.markSyncService, .idle(lastSynced: Fixture.now.addingTimeInterval(-120)))))
        #expect(ScreenRenderer.render(model).text(ofRow: 10) == " 4 of 7 │ ↻ 1 pending │ ⚠ 1 conflict │ hub: page 3, 1,200 new │ status: synced 2 min ago")
    }

    @Test("the smallest usable size, 40×10")
    func smallest() {
        var model = Fixture.model(size: TerminalSize(width: 40, height: 10))
        model.press(.character("f"))
        expectScreen(model, GoldenScreens.smallest)
    }

    @Test("below 40×10 a message replaces the screen")
    func tooSmall() {
        let model = Fixture.model(size: TerminalSize(width: 39, height: 10))
        expectScreen(model, GoldenScreens.tooSmall)
    }

    @Test("new videos show a notice in the header")
    func newNotice() {
        var model = Fixture.model()
        var library = model.library
        library.upsert([Fixture.video(100, channel: 1, minutes: 0.1, title: "Newest", duration: 60)])
        _ = model.apply(.libraryChanged(library))
        #expect(ScreenRenderer.render(model).text(ofRow: 0).hasSuffix(" 1 new ↑"))
    }

    private func expectScreen(_ model: ScreenModel, _ golden: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = ScreenRenderer.render(model).text
        #expect(text == golden, "screen was:\n\(text)", sourceLocation: sourceLocation)
    }
}
