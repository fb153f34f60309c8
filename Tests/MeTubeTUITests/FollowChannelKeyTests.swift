import Foundation
import MeTubeCore
import MeTubeFeeds
@testable import MeTubeTUI
import TestSupport
import Testing

/// `a` in the channels view: a prompt for any channel or video link, read offline; a link that
/// needs the network is resolved by the loop while the screen keeps working, and Esc stops it.
@Suite("Follow a channel by link")
struct FollowChannelKeyTests {
    static let veritasium = "UCHnyfMqiRRG1u-2MsSQLbXA"

    static func channelsView() -> ScreenModel {
        var model = Fixture.model()
        model.press(.character("c"))
        return model
    }

    /// The message line of `model` as drawn.
    static func messageLine(_ model: ScreenModel) -> String {
        ScreenRenderer.render(model).text(ofRow: model.size.height - 1)
    }

    @Test("a pasted id is followed at once; the prompt closes")
    func idFollowsAtOnce() {
        var model = Self.channelsView()
        model.press(.character("a"))
        #expect(Self.messageLine(model).hasPrefix("follow (link, @handle or id):"))

        model.type("https://www.youtube.com/channel/\(Self.veritasium)?si=x")
        #expect(model.handle(.enter) == [.follow(channelID: Self.veritasium)])
        #expect(model.followInput == nil)
    }

    @Test("a handle link is resolved: resolving… while other keys do nothing, then followed, selected and synced")
    func handleIsResolvedThenFollowed() {
        var model = Self.channelsView()
        _ = model.apply(.sync(.service(.videoSource, .idle(lastSynced: nil))))
        model.press(.character("a"))
        model.type("https://m.youtube.com/@Veritasium?si=abc&feature=share")

        // When Enter is pressed, Then the loop is asked to resolve the handle and the line says so
        let lookup = ChannelLookup(link: .handle("Veritasium"), number: 1)
        #expect(model.handle(.enter) == [.resolveChannel(lookup)])
        #expect(Self.messageLine(model).hasPrefix("follow @Veritasium: resolving… (Esc cancels)"), "\(Self.messageLine(model))")
        // And keys other than Esc change nothing while it resolves
        #expect(model.press(.character("q"), .character("j"), .enter).isEmpty)
        #expect(!model.wantsQuit)
        #expect(model.followInput?.resolving == lookup)

        // When the answer comes, Then the channel is followed
        #expect(model.apply(.channelResolved(lookup, channelID: Self.veritasium)) == [.follow(channelID: Self.veritasium)])
        #expect(model.followInput == nil)

        // When the store followed it, Then it is selected, named, and a sync fetches its videos
        var library = model.library
        library.upsert(Channel(id: Self.veritasium, title: "Veritasium"))
        _ = model.apply(.libraryChanged(library))
        #expect(model.apply(.followed(channelID: Self.veritasium, added: true)) == [.syncNow])
        #expect(model.channelList[model.channelCursor.selection].id == Self.veritasium)
        #expect(model.message == FooterMessage(text: "following Veritasium; syncing its videos…", isError: false))

        // And following it again only says so
        #expect(model.apply(.followed(channelID: Self.veritasium, added: false)).isEmpty)
        #expect(model.message?.text == "already following Veritasium")
    }

    @Test("Esc stops the lookup; its late answer follows nothing, even while the same link is looked up again")
    func escapeCancels() {
        var model = Self.channelsView()
        model.press(.character("a"))
        model.type("youtu.be/dQw4w9WgXcQ")
        let stopped = ChannelLookup(link: .video("dQw4w9WgXcQ"), number: 1)
        #expect(model.handle(.enter) == [.resolveChannel(stopped)])

        #expect(model.handle(.escape) == [.cancelChannelResolution])
        #expect(model.followInput == nil)
        #expect(model.message?.text == "stopped resolving; nothing was followed")
        #expect(model.apply(.channelResolved(stopped, channelID: Self.veritasium)).isEmpty)
        #expect(model.screen == .channels)

        // When the same link is looked up again, Then the stopped lookup's late answer is not taken for it
        model.press(.character("a"))
        model.type("youtu.be/dQw4w9WgXcQ")
        let again = ChannelLookup(link: .video("dQw4w9WgXcQ"), number: 2)
        #expect(model.handle(.enter) == [.resolveChannel(again)])
        #expect(model.apply(.channelNotResolved(stopped, reason: "stopped before yt-dlp answered")).isEmpty)
        #expect(model.followInput?.resolving == again)
        #expect(model.apply(.channelResolved(again, channelID: Self.veritasium)) == [.follow(channelID: Self.veritasium)])

        // And Esc while typing only closes the prompt
        model.press(.character("a"))
        model.type("@abc")
        #expect(model.handle(.escape).isEmpty)
        #expect(model.followInput == nil)
    }

    @Test("a bad link, an unknown handle, a hostile reason and a bad answer each give one clean error line")
    func failuresAreOneCleanLine() {
        var model = Self.channelsView()
        let channels = model.channelList

        // A link that names no channel: nothing is asked of the network
        model.press(.character("a"))
        model.type("https://example.com/@veritasium")
        #expect(model.handle(.enter).isEmpty)
        #expect(model.message == FooterMessage(text: "https://example.com/@veritasium: not a YouTube URL (host example.com); nothing was followed", isError: true))

        // An unknown handle, with controls in the reason
        model.press(.character("a"))
        model.type("@nobody_here")
        let nobody = ChannelLookup(link: .handle("nobody_here"), number: 1)
        #expect(model.handle(.enter) == [.resolveChannel(nobody)])
        #expect(model.apply(.channelNotResolved(nobody, reason: "@nobody_here does not exist\u{1B}[2J on YouTube")).isEmpty)
        #expect(model.message?.isError == true)
        #expect(model.message?.text.hasPrefix("@nobody_here: @nobody_here does not exist") == true)
        #expect(model.message?.text.contains("\u{1B}") == false)

        // A resolver answering something that is not a channel id
        model.press(.character("a"))
        model.type("@veritasium")
        model.handle(.enter)
        #expect(model.apply(.channelResolved(ChannelLookup(link: .handle("veritasium"), number: 2), channelID: "UC\u{1B}]52;c;AAAA")).isEmpty)
        #expect(model.message?.text == "@veritasium: the answer is not a channel id; nothing was followed")

        // And the channels are as they were
        #expect(model.channelList == channels)
    }

    @Test("the prompt shows the end of a long paste, never a control character, and stops at the parser's limit")
    func promptIsBoundedAndClean() {
        var model = Self.channelsView()
        model.press(.character("a"))
        model.type("https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=" + String(repeating: "x", count: 60) + "\u{1B}[31m&end=1")
        let line = Self.messageLine(model)
        #expect(line.hasPrefix("follow (link, @handle or id): …"), "\(line)")
        #expect(line.hasSuffix("[31m&end=1"), "\(line)")
        #expect(!ScreenRenderer.render(model).text.contains("\u{1B}"))

        model.type(String(repeating: "y", count: ChannelReference.maximumLength))
        #expect(model.followInput?.text.utf8.count == ChannelReference.maximumLength)
    }

    @Test("a outside the channels view points to it; the help and [keys] know it")
    func keyAndHelp() {
        var model = Fixture.model()
        #expect(model.press(.character("a")).isEmpty)
        #expect(model.followInput == nil)
        #expect(model.message?.text.contains("channels") == true)
        #expect(KeyMap().action(for: .character("a")) == .followChannel)
        #expect(HelpText.lines(KeyMap()).contains { $0.keys == "a" && $0.text.contains("follow a channel") })
    }
}
