import Foundation
import MeTubeCore
import Testing
@testable import MeTubeTUI

/// The details pane's chapters and links: listed under the video's facts, `]`/`[` select one,
/// `P` plays from a chapter in the tracked mpv (or opens the address at that time) or copies a
/// link; a hostile description keeps the list bounded.
@Suite("Details pane chapters and links")
struct DetailsItemsTests {
    static let description = "Digital Foundry looks at the PS6.\n\n0:00 Intro\n1:02:03 Verdict\nhttps://example.com/specs"

    static func openModel(size: TerminalSize = DetailsPaneTests.wide, config: TUIConfig = TUIConfig(), description: String = description) -> ScreenModel {
        var model = Fixture.model(size: size, config: config)
        model.press(.character("f"), .tab)
        _ = model.apply(.details(.description(videoID: model.selectedVideo!.id, text: description)))
        return model
    }

    @Test("the pane lists the chapters and links under a heading, the first selected")
    func listed() {
        let text = ScreenRenderer.render(Self.openModel()).text
        #expect(text.contains("2 chapters · 1 link · ] selects · P plays or copies"), "screen was:\n\(text)")
        #expect(text.contains("▸ 0:00 Intro"))
        #expect(text.contains("  1:02:03 Verdict"))
    }

    @Test("P on a chapter plays from its start in the tracked mpv")
    func playsAChapter() throws {
        var model = Self.openModel(config: try Fixture.config("[tui]\nplayer = \"mpv\"\n"))
        let videoID = model.selectedVideo!.id
        model.press(.character("]"))
        #expect(ScreenRenderer.render(model).text.contains("▸ 1:02:03 Verdict"))
        #expect(model.press(.character("P")) == [.play(videoID: videoID, startSeconds: 3_723)])
        #expect(model.message?.text == "playing \(videoID) from 1:02:03")
        #expect(model.press(.character("P")).isEmpty, "a video already playing is not started twice")
        #expect(model.message?.text.contains("already playing") == true)
    }

    @Test("without a tracked player, P opens the address at the chapter's time")
    func opensAtTheChapter() {
        var model = Self.openModel()
        let video = model.selectedVideo!
        model.press(.character("]"), .character("]"), .character("["))
        #expect(model.press(.character("P")) == [.open(videoID: video.id, url: "\(video.url)&t=3723s", markOnSuccess: false)])
    }

    @Test("P on a link copies it; ] stops at the last entry and [ at the first")
    func copiesALink() {
        var model = Self.openModel()
        for _ in 0..<10 { model.press(.character("]")) }
        #expect(model.press(.character("P")) == [.copy("https://example.com/specs")])
        #expect(model.message?.text == "copied https://example.com/specs")
        for _ in 0..<10 { model.press(.character("[")) }
        #expect(model.detailsItemIndex == 0)
    }

    @Test("another selection starts at its first entry; the pane closed or no entries says so")
    func selectionAndMessages() {
        var model = Self.openModel()
        model.press(.character("]"))
        #expect(model.detailsItemIndex == 1)
        model.press(.character("j"))
        #expect(model.detailsItemIndex == 0)
        #expect(model.press(.character("P")).isEmpty)
        #expect(model.message?.text == "no chapters or links in this description")
        var closed = Fixture.model()
        #expect(closed.press(.character("P")).isEmpty)
        #expect(closed.message?.text.contains("Tab opens it") == true)
    }

    @Test("5,000 timestamp lines and a hostile link: the list stays within the pane, the copy has no control")
    func hostile() throws {
        let stamps = (0..<5_000).map { "\($0 / 60):\(String(format: "%02d", $0 % 60)) chapter \($0) \u{1B}[2J" }.joined(separator: "\n")
        var model = Self.openModel(description: "https://evil.example/\u{1B}]52;c;ZXZpbA==\u{07}\n" + stamps)
        for _ in 0..<10_000 { model.press(.character("]")) }
        #expect(model.detailsItemIndex == DescriptionOutline.maxChapters)
        let grid = ScreenRenderer.render(model)
        #expect(!grid.cells.contains { $0.character.unicodeScalars.contains(where: DisplayText.isControl) })
        let layout = try #require(model.detailsLayout)
        let listed = grid.text.split(separator: "\n").compactMap { $0.split(separator: "│").last }.filter {
            $0.hasPrefix("▸ ") || ($0.hasPrefix("  ") && $0.dropFirst(2).first?.isNumber == true)
        }
        #expect(listed.count <= layout.height / 3)
        #expect(model.press(.character("P")) == [.copy("https://evil.example/")])
    }

    @Test("the help screen and [keys] know the new actions")
    func helpAndKeys() throws {
        let lines = HelpText.lines(KeyMap(overrides: [:])).map { "\($0.keys) \($0.text)" }.joined(separator: "\n")
        #expect(lines.contains("play from the selected chapter"))
        let config = try Fixture.config("[keys]\ndetails-use = \"x\"\n")
        var model = Self.openModel(config: config)
        #expect(model.press(.character("x")) == [.play(videoID: model.selectedVideo!.id, startSeconds: 0)])
    }
}
