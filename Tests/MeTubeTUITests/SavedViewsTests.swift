import Foundation
import MeTubeCore
import Testing
import TestSupport
@testable import MeTubeTUI

/// Views in the TUI (`v`, `1`–`9`, `f`) and marking a whole view (`A`, `W`) with undo (`U`).
@Suite("Saved views and bulk marks")
struct SavedViewsTests {
    static let configText = """
        [views.synth]
        query = 'channel:"Kitchen Synth"'

        [views.long]
        query = "duration>20m and unwatched"

        [[rules]]
        name = "no shorts"
        query = "duration<60s"
        action = "hide"
        """

    static func model(size: TerminalSize = Fixture.size) throws -> ScreenModel {
        Fixture.model(size: size, config: try Fixture.config(configText))
    }

    static func id(_ number: Int) -> String { SyntheticLibrary.videoID(number) }

    @Test("v lists the built-in views, then the config file's, with unseen and total counts; Enter switches")
    func pickerSwitches() throws {
        var model = try Self.model()
        model.press(.character("v"))
        #expect(model.screen == .views)
        #expect(model.views.map(\.name) == ["unwatched", "all", "watched", "skipped", "in-progress", "upcoming", "synth", "long"])
        // unwatched: videos 0, 1, 5 (3 is under 60 s, hidden by the rule); all: every video, the rule hides nothing there
        #expect(model.viewCounts[0] == ViewCount(unseen: 3, total: 3))
        #expect(model.viewCounts[1] == ViewCount(unseen: 4, total: 7))
        #expect(model.viewCounts[5] == ViewCount(unseen: 0, total: 0))
        #expect(model.viewCounts[6] == ViewCount(unseen: 1, total: 2))
        #expect(model.viewCounts[7] == ViewCount(unseen: 2, total: 2))

        model.press(.character("G"), .enter)
        #expect(model.screen == .feed)
        #expect(model.currentView.name == "long")
        #expect(Fixture.rowIDs(model) == [Self.id(0), Self.id(1)])
        #expect(ScreenRenderer.render(model).text(ofRow: 10).hasPrefix(" view long │ 2 of 7"))
    }

    @Test("the n-th number key switches to the n-th view; a key past the last view says so")
    func numberKeys() throws {
        var model = try Self.model()
        model.press(.character("7"))
        #expect(model.currentView.name == "synth")
        #expect(Fixture.rowIDs(model) == [Self.id(2), Self.id(5)])
        model.press(.character("2"))
        #expect(model.currentView.name == "all")
        #expect(model.rows.count == 7)
        model.press(.character("9"))
        #expect(model.currentView.name == "all")
        #expect(model.message?.text == "there is no view 9; v lists the views")
    }

    @Test("[keys] jump-to-view rebinds the number keys: the n-th key given is the n-th view")
    func reboundNumberKeys() throws {
        var model = Fixture.model(config: try Fixture.config(Self.configText + "\n[keys]\njump-to-view = \"F X\"\n"))
        model.press(.character("X"))
        #expect(model.currentView.name == "all")
        model.press(.character("1"))
        #expect(model.currentView.name == "all")
    }

    @Test("f cycles the built-in views; from a saved view it goes back to the first, leaving the query")
    func cycleLeavesSavedView() throws {
        var model = try Self.model()
        model.press(.character("f"))
        #expect(model.currentView.name == "all")
        model.press(.character("7"), .character("f"))
        #expect(model.currentView.name == "unwatched")
        #expect(model.query.query == nil)
        #expect(Fixture.rowIDs(model) == [Self.id(0), Self.id(1), Self.id(5)])
    }

    @Test("hide rules keep videos out of every view but all")
    func hideRules() throws {
        var model = try Self.model()
        #expect(!Fixture.rowIDs(model).contains(Self.id(3)))
        model.press(.character("2"))
        #expect(Fixture.rowIDs(model).contains(Self.id(3)))
    }

    @Test("A asks with the count; n marks nothing; y marks every video of the view in one batch")
    func markAllAsksFirst() throws {
        var model = try Self.model()
        #expect(model.press(.character("A")).isEmpty)
        #expect(model.message?.text == "Mark 3 videos of unwatched skipped? (y/n)")
        #expect(model.press(.character("n")).isEmpty)
        #expect(model.message?.text == "nothing marked")
        #expect(model.undoHistory.steps.isEmpty)

        let effects = model.press(.character("A"), .character("y"))
        #expect(effects == [.markBatch([.skipped: [Self.id(0), Self.id(1), Self.id(5)]])])
        #expect(model.rows.isEmpty)
        #expect(model.library.marks[Self.id(5)]?.status == .skipped)
        #expect(model.library.marks[Self.id(5)]?.syncState == .pending)
    }

    @Test("W on a view where every video is watched already says so and asks nothing")
    func markAllNothingToDo() throws {
        var model = try Self.model()
        model.press(.character("3"), .character("W"))
        #expect(model.pendingBulkMark == nil)
        #expect(model.message?.text == "every video here is watched already")
    }

    @Test("U undoes step by step: the batch first, then the single mark before it, then nothing")
    func undoSeveralSteps() throws {
        var model = try Self.model()
        model.press(.character("w"))  // video 0 watched (it stays on screen until the view changes)
        model.press(.character("A"), .character("y"))  // videos 0, 1 and 5 skipped
        #expect(model.undoHistory.steps.count == 2)

        let first = model.press(.character("U"))
        #expect(first == [.markBatch([.watched: [Self.id(0)], .unwatched: [Self.id(1), Self.id(5)]])])
        #expect(model.message?.text == "undid 3 videos of unwatched skipped (1 more step to undo)")
        #expect(model.library.marks[Self.id(5)]?.status == .unwatched)
        #expect(model.library.marks[Self.id(0)]?.status == .watched)

        let second = model.press(.character("U"))
        #expect(second == [.markBatch([.unwatched: [Self.id(0)]])])
        #expect(model.press(.character("U")).isEmpty)
        #expect(model.message?.text == "nothing to undo")
    }

    @Test("U puts back each video's own previous status, not one status for all")
    func undoRestoresEachStatus() throws {
        var model = try Self.model()
        model.press(.character("2"), .character("W"), .character("y"))
        let effects = model.press(.character("U"))
        guard case .markBatch(let batch)? = effects.first else {
            Issue.record("no batch: \(effects)")
            return
        }
        #expect(Set(batch[.unwatched] ?? []) == Set([0, 1, 3, 5].map(Self.id)))
        #expect(batch[.skipped] == [Self.id(4)])
        #expect(batch[.watched] == nil)
    }

    @Test("the skipped marks rules made on a sync's new videos are one undo step")
    func undoRuleMarksOfASync() throws {
        var model = try Self.model()
        var library = model.library
        let arrival = Video(id: Self.id(7), channelID: SyntheticLibrary.channelID(1), title: "Trailer", published: Fixture.now, duration: 90)
        _ = library.upsert([arrival])
        library.apply(Mark(videoID: arrival.id, status: .skipped, hlc: HybridTimestamp(millis: 5_000), deviceID: "laptop", syncState: .pending, rule: "trailers"))
        _ = model.apply(.libraryChanged(library))
        #expect(model.undoHistory.steps.last?.label == "rule marks of the last sync (1 video)")
        #expect(model.press(.character("U")) == [.markBatch([.unwatched: [arrival.id]])])
    }

    @Test("the undo history is bounded in steps and in videos, the newest step kept whole")
    func undoHistoryBounds() {
        var history = UndoHistory()
        for number in 0..<(UndoHistory.stepLimit + 5) { history.push(UndoStep(label: "\(number)", previous: [("v\(number)", .unwatched)])) }
        #expect(history.steps.count == UndoHistory.stepLimit)
        #expect(history.steps.first?.label == "5")
        history.push(UndoStep(label: "huge", previous: Array(repeating: ("x", .unwatched), count: UndoHistory.videoLimit + 1)))
        #expect(history.steps.map(\.label) == ["huge"])
    }

    @Test("a saved view over a large library answers with its first screen, streams the rest between keys, and agrees with the CLI's filter")
    func streamedSavedView() throws {
        // Given 45,000 videos and a saved view of one channel's long videos
        let synthetic = SyntheticLibrary(channelCount: 8, videoCount: 45_000, markCount: 9_000)
        let library = synthetic.library()
        let text = "channel:\(SyntheticLibrary.channelID(2)) and duration>10m"
        var config = TUIConfig()
        config.views = SavedView.builtIn + [SavedView(name: "long2", query: try VideoQuery(parsing: text))]
        var model = ScreenModel(library: library, size: Fixture.size, config: config, now: Fixture.now, statusesKnown: true)
        var brute = FeedQuery(filter: .all)
        brute.query = try VideoQuery(parsing: text)
        let expected = brute.rows(in: library, statusesKnown: true).map(\.video.id)

        // When 6 switches to it, Then only the first screen is there, and the status line says more follow
        model.press(.character("7"))
        #expect(model.isScanningView)
        #expect(model.rows.count == model.listHeight)
        #expect(ScreenRenderer.render(model).text(ofRow: 10).hasPrefix(" view long2 │ 9… of 45,000"))

        // When the loop has no key, Then the rest follows step by step, the same rows as list --query
        var steps = 0
        while model.continueViewScan() { steps += 1 }
        #expect(steps == 3)
        #expect(Fixture.rowIDs(model) == expected)

        // When a key comes before the scan ends, Then the scan ends first: G reaches the last row
        model.press(.character("1"), .character("7"), .character("G"))
        #expect(!model.isScanningView)
        #expect(model.selectedVideo?.id == expected.last)
    }

    @Test("a saved view whose title regex backtracks without end is stopped, says so, and leaves the video out")
    func explodingRegexView() throws {
        var library = Fixture.library
        let bomb = Video(id: Self.id(9), channelID: SyntheticLibrary.channelID(1), title: String(repeating: "a", count: 5_000) + "!", published: Fixture.now, duration: 600)
        _ = library.upsert([bomb])
        var config = TUIConfig()
        config.views = SavedView.builtIn + [SavedView(name: "bomb", query: try VideoQuery(parsing: "title~\"(a+)+$\""))]
        var model = ScreenModel(library: library, size: Fixture.size, config: config, now: Fixture.now, statusesKnown: true)
        model.press(.character("7"))
        #expect(model.currentView.name == "bomb")
        #expect(!Fixture.rowIDs(model).contains(bomb.id))
        #expect(model.message?.isError == true)
        #expect(model.message?.text.contains("stopped at the step limit") == true)
    }

    @Test("golden: the view picker with keys, counts, names and queries, the view in use marked")
    func pickerScreen() throws {
        var model = try Self.model()
        model.press(.character("v"), .character("j"))
        expectScreen(model, SavedViewsGoldenScreens.picker)
    }

    @Test("golden: A's question names the count and the view")
    func confirmationScreen() throws {
        var model = try Self.model()
        model.press(.character("7"), .character("A"))
        expectScreen(model, SavedViewsGoldenScreens.confirmation)
    }

    @Test("golden: a saved view named on the status line and in the header")
    func savedViewScreen() throws {
        var model = try Self.model()
        model.press(.character("8"))
        expectScreen(model, SavedViewsGoldenScreens.savedViewStatusLine)
    }

    private func expectScreen(_ model: ScreenModel, _ golden: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = ScreenRenderer.render(model).text
        #expect(text == golden, "screen was:\n\(text)", sourceLocation: sourceLocation)
    }
}
