import MeTubeCore
import Testing
@testable import MeTubeTUI

/// `I` in the channels view imports the YouTube subscriptions in the background; the status line
/// follows the import and says what it did or why it could not.
@Suite("YouTube import key")
struct YouTubeImportKeyTests {
    static func channelsView() -> ScreenModel {
        var model = Fixture.model()
        model.press(.character("c"))
        return model
    }

    @Test("I starts one import at a time and shows the pages read")
    func startsOnceAndShowsProgress() {
        var model = Self.channelsView()

        // When I is pressed, Then the loop is asked to import and the status line says so
        #expect(model.press(.character("I")) == [.importYouTube])
        #expect(model.message == FooterMessage(text: "youtube: reading your subscriptions…", isError: false))

        // When a page is read, Then the counts show
        #expect(model.apply(.youTubeImport(.reading(pages: 2, channels: 100))).isEmpty)
        #expect(model.message?.text == "youtube: reading your subscriptions… 2 pages, 100 channels")

        // When I is pressed again while it runs, Then no second import starts
        #expect(model.press(.character("I")).isEmpty)
        #expect(model.message?.text == "youtube: the import is still under way")
    }

    @Test("the result on the status line of the channels view")
    func resultOnTheStatusLine() {
        var model = Self.channelsView()
        model.press(.character("I"))

        // When the import ends, Then the status line has what it did; without a sync, nothing more happens
        #expect(model.apply(.youTubeImport(.finished(YouTubeImportReport(added: 12, alreadyFollowed: 200, notSubscribed: 3)))).isEmpty)
        let text = ScreenRenderer.render(model).text
        #expect(text == GoldenScreens.channelsAfterYouTubeImport, "screen was:\n\(text)")
        #expect(!model.isImportingYouTube)
    }

    @Test("channels added with a sync configured ask for a sync, so their videos come")
    func addedChannelsSync() {
        var model = Self.channelsView()
        _ = model.apply(.sync(.service(.videoSource, .idle(lastSynced: nil))))
        model.press(.character("I"))
        #expect(model.apply(.youTubeImport(.finished(YouTubeImportReport(added: 2, alreadyFollowed: 0)))) == [.syncNow])

        // When nothing was added, Then no sync is asked for
        model.press(.character("I"))
        #expect(model.apply(.youTubeImport(.finished(YouTubeImportReport(added: 0, alreadyFollowed: 2)))).isEmpty)
        #expect(model.message?.text == "youtube: 0 added, 2 already followed")
    }

    @Test("not signed in, no client, a stop part way and a failure each say so, and I works again")
    func failuresAreClear() {
        var model = Self.channelsView()
        let cases: [(YouTubeImportProgress, String)] = [
            (.notSignedIn, "youtube: not signed in; run metube youtube login first"),
            (.signInRejected, "youtube: the sign-in was revoked or has expired; run metube youtube login again"),
            (.notConfigured("no OAuth client: set [youtube] client-id"), "youtube: no OAuth client: set [youtube] client-id"),
            (.finished(YouTubeImportReport(added: 50, alreadyFollowed: 0, rejected: 1, failure: "quota spent\u{1B}[2J")),
             "youtube: 50 added, 0 already followed, 1 rejected; stopped: \(DisplayText.line("quota spent\u{1B}[2J")) (what was read is kept)"),
            (.failed("cannot open the store"), "youtube: cannot open the store; nothing was imported"),
        ]
        for (progress, text) in cases {
            #expect(model.press(.character("I")) == [.importYouTube])
            _ = model.apply(.youTubeImport(progress))
            #expect(model.message == FooterMessage(text: text, isError: true))
            #expect(model.message?.text.contains("\u{1B}") == false)
            #expect(!model.isImportingYouTube)
        }
    }

    @Test("I outside the channels view points to it; the help and [keys] know it")
    func keyAndHelp() {
        var model = Fixture.model()
        #expect(model.press(.character("I")).isEmpty)
        #expect(model.message?.text.contains("channels") == true)
        #expect(KeyMap().action(for: .character("I")) == .importYouTube)
        #expect(HelpText.lines(KeyMap()).contains { $0.text.contains("YouTube subscriptions") })
    }
}

extension GoldenScreens {
    static let channelsAfterYouTubeImport = """
         metube · channels (unseen, videos)
              2       3  Digital Foundry
              1       2  Kitchen Synth
              1       2  東京チャンネル






         3 channels │ ↻ 1 pending │ ⚠ 1 conflict │ hub: not configured │ status…
        youtube: 12 added, 200 already followed, 3 no longer subscribed
        """
}
