import Foundation
import MeTubeCore
import TestSupport
import MeTubeStore
import MeTubeSync
import Testing
@testable import MeTubeTUI

@Suite("Screen model")
struct ScreenModelTests {
    let id = SyntheticLibrary.videoID

    @Test("the feed starts on the unwatched filter, newest first")
    func initialFeed() {
        // Given / When a model over the fixture
        let model = Fixture.model()
        // Then unwatched videos show, newest first, the first selected
        #expect(Fixture.rowIDs(model) == [id(0), id(1), id(3), id(5)])
        #expect(model.selectedVideo?.id == id(0))
        #expect(model.pendingCount == 1)
        #expect(model.conflictCount == 1)
    }

    @Test("j, k, G, g, arrows and pages move the selection within bounds")
    func navigation() {
        // Given a feed of four rows
        var model = Fixture.model()
        // When moving about
        model.press(.character("j"), .down)
        #expect(model.feedCursor.selection == 2)
        model.press(.character("G"))
        #expect(model.feedCursor.selection == 3)
        model.press(.character("j"))
        #expect(model.feedCursor.selection == 3)
        model.press(.up, .character("k"))
        #expect(model.feedCursor.selection == 1)
        model.press(.character("g"))
        #expect(model.feedCursor.selection == 0)
        model.press(.pageDown)
        #expect(model.feedCursor.selection == 3)
        model.press(.home)
        // Then the selection never leaves the list
        #expect(model.feedCursor.selection == 0)
    }

    @Test("paging scrolls a long feed by a screen")
    func paging() {
        // Given 500 videos on a 12-row terminal (9 list rows)
        let synthetic = SyntheticLibrary(channelCount: 5, videoCount: 500, markCount: 0)
        var model = ScreenModel(library: synthetic.library(), size: Fixture.size, now: Fixture.now, statusesKnown: true)
        // When paging down twice and up once
        model.press(.pageDown, .pageDown, .pageUp)
        // Then the selection moved one page and stays on screen
        #expect(model.feedCursor.selection == 9)
        #expect(model.feedCursor.scroll <= 9 && 9 < model.feedCursor.scroll + model.listHeight)
        model.press(.end)
        #expect(model.feedCursor.selection == model.rows.count - 1)
        #expect(model.feedCursor.scroll == model.rows.count - model.listHeight)
    }

    @Test("w marks watched at once, pending, and the row stays until the filter changes")
    func markWatched() {
        // Given the newest video selected
        var model = Fixture.model()
        // When w is pressed
        let effects = model.press(.character("w"))
        // Then the store is asked, the mark shows pending, the row stays
        #expect(effects == [.mark(videoID: id(0), status: .watched)])
        #expect(model.library.marks[id(0)]?.status == .watched)
        #expect(model.library.marks[id(0)]?.syncState == .pending)
        #expect(model.pendingCount == 2)
        #expect(Fixture.rowIDs(model).first == id(0))
        // And w again toggles back to unwatched
        #expect(model.press(.character("w")) == [.mark(videoID: id(0), status: .unwatched)])
        // And after a filter change the watched row is gone when the filter excludes it
        model.press(.character("s"))
        model.press(.character("f"), .character("f"), .character("f"), .character("f"))
        #expect(!Fixture.rowIDs(model).contains(id(0)))
    }

    @Test("s toggles skipped and u sets unwatched")
    func skipAndUnwatch() {
        var model = Fixture.model()
        #expect(model.press(.character("s")) == [.mark(videoID: id(0), status: .skipped)])
        #expect(model.press(.character("u")) == [.mark(videoID: id(0), status: .unwatched)])
        #expect(model.library.marks[id(0)]?.status == .unwatched)
    }

    @Test("the store's answer replaces the optimistic mark, and a failure is shown")
    func markAnswers() {
        // Given a pending optimistic mark
        var model = Fixture.model()
        model.press(.character("w"))
        // When the store confirms it, then fails another
        let durable = Mark(videoID: id(0), status: .watched, hlc: HybridTimestamp(millis: 9_999), deviceID: "laptop")
        _ = model.apply(.marked(durable))
        _ = model.apply(.markFailed(videoID: id(1), message: "disk full"))
        // Then the durable mark is kept and the failure is an error message
        #expect(model.library.marks[id(0)] == durable)
        #expect(model.message == FooterMessage(text: "could not mark \(id(1)): disk full", isError: true))
    }

    @Test("f cycles unwatched, all, watched, skipped, in progress; unknown stays visible in each")
    func filterCycle() {
        // Given statuses not yet known: unmarked videos are unknown
        var model = Fixture.model(statusesKnown: false)
        let unknown = [id(0), id(3), id(5)]
        var seen: [FeedFilter: [String]] = [:]
        for _ in 0..<FeedFilter.allCases.count {
            seen[model.query.filter] = Fixture.rowIDs(model)
            model.press(.character("f"))
        }
        // Then each filter shows its own plus the unknown ones
        #expect(model.query.filter == .unwatched)
        #expect(seen[.unwatched] == [id(0), id(1), id(3), id(5)])
        #expect(seen[.all]?.count == 7)
        #expect(seen[.watched] == [id(0), id(2), id(3), id(5), id(6)])
        #expect(seen[.skipped] == [id(0), id(3), id(4), id(5)])
        #expect(seen[.inProgress] == unknown)
        // (upcoming lists by availability: none of these videos is upcoming)
        #expect(seen[.upcoming] == [])
        for filter in FeedFilter.allCases where filter != .upcoming { #expect(unknown.allSatisfy { seen[filter]!.contains($0) }) }
    }

    @Test("S hides Shorts (under 60 s or a /shorts/ link) and shows them again")
    func shorts() {
        var model = Fixture.model()
        model.press(.character("S"))
        #expect(!Fixture.rowIDs(model).contains(id(3)))
        #expect(model.query.hideShorts)
        model.press(.character("S"))
        #expect(Fixture.rowIDs(model).contains(id(3)))
    }

    @Test("/ searches incrementally over title and channel; n and N move between matches")
    func search() {
        // Given the all filter
        var model = Fixture.model()
        model.press(.character("f"))
        // When typing a search that matches a channel name and a title
        model.press(.character("/"))
        model.type("synth")
        // Then the first match is selected while typing, with a count
        #expect(model.searchInput == "synth")
        #expect(model.selectedVideo?.id == id(2))
        #expect(model.searchMatchCount == 2)
        // And Enter keeps it; n goes to the next, n again wraps, N goes back
        model.press(.enter)
        #expect(model.searchInput == nil)
        model.press(.character("n"))
        #expect(model.selectedVideo?.id == id(5))
        model.press(.character("n"))
        #expect(model.selectedVideo?.id == id(2))
        #expect(model.message?.text == "search wrapped to the top")
        model.press(.character("N"))
        #expect(model.selectedVideo?.id == id(5))
    }

    @Test("search matches CJK text, Backspace edits, Esc cancels back to where it started")
    func searchEditing() {
        var model = Fixture.model()
        model.press(.character("j"))
        model.press(.character("/"))
        model.type("東京x")
        #expect(model.searchMatchCount == 0)
        model.press(.backspace)
        #expect(model.searchMatchCount == 1)
        #expect(model.selectedVideo?.id == id(1))
        model.press(.escape)
        #expect(model.searchInput == nil && model.searchText.isEmpty)
        #expect(model.feedCursor.selection == 1)
    }

    @Test("a search with no match says so")
    func searchWithoutMatch() {
        var model = Fixture.model()
        model.press(.character("/"))
        model.type("zzz")
        model.press(.enter)
        #expect(model.message == FooterMessage(text: "0 matches for \"zzz\"", isError: true))
    }

    @Test("F in the channels view fetches the failing channels again through a sync")
    func retryFailingChannels() {
        // Given the channels view with one failing channel and the hub configured
        var model = Fixture.model()
        _ = model.apply(.sync(.service(.videoSource, .idle(lastSynced: nil))))
        _ = model.apply(.channelFetchesChanged(Fixture.channelFetches))
        model.press(.character("c"))
        #expect(model.channelList.map(\.isFailing) == [false, false, true])
        // When pressing F
        let effects = model.handle(.character("F"))
        // Then a sync is requested and the message says how many channels are retried
        #expect(effects == [.syncNow])
        #expect(model.message?.text == "fetching 1 failing channel again…")
    }

    @Test("F with no failing channel says so and asks for nothing")
    func retryWithNothingFailing() {
        // Given the channels view where every fetch succeeded
        var model = Fixture.model()
        _ = model.apply(.sync(.service(.videoSource, .idle(lastSynced: nil))))
        _ = model.apply(.channelFetchesChanged([SyntheticLibrary.channelID(1): ChannelFetchResult(lastSuccess: Fixture.now)]))
        model.press(.character("c"))
        // When pressing F
        let effects = model.handle(.character("F"))
        // Then nothing is requested
        #expect(effects.isEmpty)
        #expect(model.message?.text == "no channel is failing")
    }

    @Test("c lists channels with unseen counts; Enter shows one channel, Esc goes back")
    func channels() {
        // Given the feed
        var model = Fixture.model()
        // When opening the channels view
        model.press(.character("c"))
        // Then channels are listed by name with unseen and total counts
        #expect(model.screen == .channels)
        #expect(model.channelList.map(\.name) == ["Digital Foundry", "Kitchen Synth", "東京チャンネル"])
        #expect(model.channelList.map(\.unseen) == [2, 1, 1])
        #expect(model.channelList.map(\.total) == [3, 2, 2])
        // When choosing the second channel
        model.press(.character("j"), .enter)
        #expect(model.screen == .feed)
        #expect(model.query.channelID == SyntheticLibrary.channelID(3))
        #expect(Fixture.rowIDs(model) == [id(5)])
        // When pressing Esc: back to the channels, on the same channel; Esc again: whole feed
        model.press(.escape)
        #expect(model.screen == .channels)
        #expect(model.channelCursor.selection == 1)
        model.press(.escape)
        #expect(model.screen == .feed && model.query.channelID == nil)
    }

    @Test("C lists conflicts; m keeps mine and t takes theirs by marking again")
    func conflicts() {
        // Given one conflict: mine skipped, theirs watched
        var model = Fixture.model()
        model.press(.character("C"))
        #expect(model.screen == .conflicts)
        #expect(model.conflictList == [id(4)])
        // When taking theirs
        let effects = model.press(.character("t"))
        // Then the video is marked with their value and leaves the list
        #expect(effects == [.mark(videoID: id(4), status: .watched)])
        #expect(model.conflictList.isEmpty)
        #expect(model.conflictCount == 0)
    }

    @Test("keeping mine marks my value again")
    func keepMine() {
        var model = Fixture.model()
        model.press(.character("C"))
        #expect(model.press(.character("m")) == [.mark(videoID: id(4), status: .skipped)])
    }

    @Test("Enter opens the video; the mark follows the configured policy")
    func openPolicies() {
        // Given each policy
        var onSuccess = Fixture.model()
        var always = Fixture.model(config: TUIConfig(markOnOpen: .always))
        var never = Fixture.model(config: TUIConfig(markOnOpen: .never))
        let url = "https://www.youtube.com/watch?v=\(id(0))"
        // Then on-success waits for the player, always marks at once, never does not mark
        #expect(onSuccess.press(.enter) == [.open(videoID: id(0), url: url, markOnSuccess: true)])
        #expect(always.press(.character("o")) == [.mark(videoID: id(0), status: .watched), .open(videoID: id(0), url: url, markOnSuccess: false)])
        #expect(never.press(.enter) == [.open(videoID: id(0), url: url, markOnSuccess: false)])
        // And a successful player exit marks watched; a failed one reports an error
        #expect(onSuccess.apply(.playerExited(videoID: id(0), success: true, detail: "")) == [.mark(videoID: id(0), status: .watched)])
        #expect(onSuccess.apply(.playerExited(videoID: id(0), success: false, detail: "mpv exited with status 2")).isEmpty)
        #expect(onSuccess.message?.isError == true)
    }

    @Test("y copies the URL and shows it")
    func copy() {
        var model = Fixture.model()
        let url = "https://www.youtube.com/watch?v=\(id(0))"
        #expect(model.press(.character("y")) == [.copy(url)])
        #expect(model.message?.text == "copied \(url)")
    }

    @Test("r says sync is not configured until a service is, then asks for a sync")
    func syncNow() {
        var model = Fixture.model()
        #expect(model.press(.character("r")).isEmpty)
        #expect(model.message?.text == "sync is not configured")
        _ = model.apply(.sync(.service(.videoSource, .idle(lastSynced: nil))))
        #expect(model.press(.character("r")) == [.syncNow])
    }

    @Test("new videos raise a notice and keep the selected row where it was on screen")
    func newVideosKeepPlace() {
        // Given a long feed scrolled so the selection is the fourth line on screen
        let synthetic = SyntheticLibrary(channelCount: 5, videoCount: 100, markCount: 0)
        var model = ScreenModel(library: synthetic.library(), size: Fixture.size, now: Fixture.now, statusesKnown: true)
        for _ in 0..<12 { model.press(.character("j")) }
        let selected = model.selectedVideo?.id
        let line = model.feedCursor.selection - model.feedCursor.scroll
        // When two newer videos arrive
        var library = model.library
        library.upsert([
            Fixture.video(1_000, channel: 1, minutes: -10, title: "Newest", duration: 60),
            Fixture.video(1_001, channel: 2, minutes: -9, title: "Newer", duration: 60),
        ])
        _ = model.apply(.libraryChanged(library))
        // Then the same video is selected on the same screen line, and "2 new" is raised
        #expect(model.selectedVideo?.id == selected)
        #expect(model.feedCursor.selection == 14)
        #expect(model.feedCursor.selection - model.feedCursor.scroll == line)
        #expect(model.newCount == 2)
        // And going to the top clears the notice
        model.press(.character("g"))
        #expect(model.newCount == 0)
    }

    @Test("videos a sync backfilled are taken off the new-videos notice")
    func backfilledVideosAreNotNew() {
        // Given a feed scrolled down
        let synthetic = SyntheticLibrary(channelCount: 5, videoCount: 100, markCount: 0)
        var model = ScreenModel(library: synthetic.library(), size: Fixture.size, now: Fixture.now, statusesKnown: true)
        for _ in 0..<12 { model.press(.character("j")) }
        // When a sync brings one new upload and three older backfilled ones
        var library = model.library
        library.upsert([
            Fixture.video(1_000, channel: 1, minutes: -10, title: "Newest", duration: 60),
            Fixture.video(1_001, channel: 2, minutes: -90_000, title: "Older 1", duration: 60),
            Fixture.video(1_002, channel: 2, minutes: -90_001, title: "Older 2", duration: 60),
            Fixture.video(1_003, channel: 2, minutes: -90_002, title: "Older 3", duration: 60),
        ])
        _ = model.apply(.libraryChanged(library))
        #expect(model.newCount == 4)
        var bridge = SyncEventBridge(hasMarkSync: false)
        var report = SyncReport(source: .hub)
        (report.newVideos, report.backfilledVideos) = (1, 3)
        let events = bridge.translate(.finished(report))
        #expect(events.contains(.backfilled(3)))
        for event in events where event != .storeChanged { _ = model.apply(.sync(event)) }
        // Then "1 new" is raised, not 4
        #expect(model.newCount == 1)
        // And a report of more backfilled videos than the notice counts never goes below 0
        _ = model.apply(.sync(.backfilled(9)))
        #expect(model.newCount == 0)
    }

    @Test("the first videos into an empty feed show from the top, without a notice")
    func firstVideos() {
        // Given an empty store's feed
        var model = ScreenModel(library: Library(), size: Fixture.size, now: Fixture.now, statusesKnown: true)
        // When the first sync brings the fixture's videos
        _ = model.apply(.libraryChanged(Fixture.library))
        // Then the newest is selected and nothing is announced as new
        #expect(model.selectedVideo?.id == id(0))
        #expect(model.newCount == 0)
    }

    @Test("a mark made by another process shows up on refresh")
    func externalMark() {
        var model = Fixture.model()
        var library = model.library
        library.apply(Fixture.mark(3, .watched, .pending))
        _ = model.apply(.libraryChanged(library))
        #expect(model.library.marks[id(3)]?.status == .watched)
        #expect(model.pendingCount == 2)
    }

    @Test("an unbound key says so and ? toggles the help")
    func unboundAndHelp() {
        var model = Fixture.model()
        model.press(.character("Z"))
        #expect(model.message?.text == "Z does nothing here; ? shows the keys")
        model.press(.character("?"))
        #expect(model.screen == .help)
        model.press(.character("?"))
        #expect(model.screen == .feed)
    }

    @Test("q quits from any view")
    func quit() {
        var model = Fixture.model()
        model.press(.character("c"))
        #expect(model.press(.character("q")) == [.quit])
        #expect(model.wantsQuit)
    }

    @Test("a resize keeps the selection on screen")
    func resize() {
        let synthetic = SyntheticLibrary(channelCount: 5, videoCount: 200, markCount: 0)
        var model = ScreenModel(library: synthetic.library(), size: TerminalSize(width: 80, height: 40), now: Fixture.now, statusesKnown: true)
        for _ in 0..<30 { model.press(.character("j")) }
        _ = model.apply(.resized(TerminalSize(width: 40, height: 10)))
        #expect(model.feedCursor.selection == 30)
        #expect(model.feedCursor.scroll <= 30 && 30 < model.feedCursor.scroll + model.listHeight)
    }

    @Test("configured keys replace the defaults")
    func configuredKeys() throws {
        let config = try Fixture.config("[keys]\ntoggle-watched = \"x\"\n")
        var model = Fixture.model(config: config)
        #expect(model.press(.character("x")) == [.mark(videoID: id(0), status: .watched)])
        #expect(model.press(.character("w")).isEmpty)
    }
}
