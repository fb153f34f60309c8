import Foundation
import MeTubeCore
import MeTubeThumbnails
import Testing
@testable import MeTubeTUI

/// The details pane (`Tab`): its layouts, its text, its picture and placeholders, and bad
/// descriptions kept bounded and harmless.
@Suite("Details pane")
struct DetailsPaneTests {
    static let narrow = TerminalSize(width: 100, height: 24)
    static let wide = TerminalSize(width: 130, height: 24)

    static func fixturePicture(columns: Int, rows: Int, colors: PictureColors = .direct) throws -> Picture {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/thumbnail-320x180.jpg", withExtension: nil))
        let image = try JPEGDecoder().decode(Array(try Data(contentsOf: url)))
        return try SymbolRenderer(colors: colors).render(image, columns: columns, rows: rows)
    }

    /// The fixture model at `size` with the pane open on the first row, its description loaded.
    static func openModel(size: TerminalSize, description: String? = "Digital Foundry looks at the PS6.\n\n0:00 Intro\n1:02:03 Verdict\nhttps://example.com/specs") -> ScreenModel {
        var model = Fixture.model(size: size)
        model.press(.character("f"), .tab)
        let videoID = model.selectedVideo!.id
        _ = model.apply(.details(.description(videoID: videoID, text: description)))
        return model
    }

    @Test("Tab toggles the pane; below the list under 120 columns, beside it from 120")
    func layouts() throws {
        var model = Fixture.model(size: Self.narrow)
        let fullHeight = model.listHeight
        model.press(.tab)
        let below = try #require(model.detailsLayout)
        #expect(!below.isBeside)
        #expect(model.listHeight == fullHeight - below.listRowsTaken)
        model.press(.tab)
        #expect(model.detailsLayout == nil)
        #expect(model.listHeight == fullHeight)

        var wideModel = Fixture.model(size: Self.wide)
        wideModel.press(.tab)
        let beside = try #require(wideModel.detailsLayout)
        #expect(beside.isBeside)
        #expect(beside.listWidth >= DetailsLayout.listMinimum)
        #expect(wideModel.listHeight == Self.wide.height - 3)
    }

    @Test("golden: wide, beside the list, with the fixture JPEG drawn in symbols")
    func wideWithPicture() throws {
        var model = Self.openModel(size: Self.wide)
        let layout = try #require(model.detailsLayout)
        let picture = try Self.fixturePicture(columns: layout.pictureColumns, rows: layout.pictureRows)
        _ = model.apply(.details(.picture(DetailsPicture(videoID: model.selectedVideo!.id, columns: layout.pictureColumns, rows: layout.pictureRows, state: .ready(picture)))))
        let grid = ScreenRenderer.render(model)
        #expect(grid.text == DetailsGoldenScreens.wide, "screen was:\n\(grid.text)")
        let pictureCell = grid[layout.top, layout.left]
        #expect(pictureCell.colors != nil)
        #expect(pictureCell.colors?.isDirect == true)
    }

    @Test("golden: narrow, below the list, picture waiting")
    func narrowWaiting() {
        let model = Self.openModel(size: Self.narrow)
        let text = ScreenRenderer.render(model).text
        #expect(text == DetailsGoldenScreens.narrowWaiting, "screen was:\n\(text)")
    }

    @Test("golden: a placeholder gives its reason (offline, not a JPEG…)")
    func placeholderReason() throws {
        var model = Self.openModel(size: Self.narrow)
        let layout = try #require(model.detailsLayout)
        _ = model.apply(.details(.picture(DetailsPicture(
            videoID: model.selectedVideo!.id, columns: layout.pictureColumns, rows: layout.pictureRows, state: .unavailable("not a JPEG (HTML)")))))
        let text = ScreenRenderer.render(model).text
        #expect(text == DetailsGoldenScreens.narrowPlaceholder, "screen was:\n\(text)")
    }

    @Test("a fetch failing for the selected video turns its waiting picture into a placeholder")
    func fetchFailureShows() throws {
        var model = Self.openModel(size: Self.narrow)
        let layout = try #require(model.detailsLayout)
        let videoID = model.selectedVideo!.id
        _ = model.apply(.details(.picture(DetailsPicture(videoID: videoID, columns: layout.pictureColumns, rows: layout.pictureRows, state: .waiting))))
        _ = model.apply(.details(.fetched(videoID: videoID, failure: "unreachable: connection refused")))
        #expect(model.details.picture?.state == .unavailable("unreachable: connection refused"))
        let generation = model.details.pictureGeneration
        _ = model.apply(.details(.fetched(videoID: videoID, failure: nil)))
        #expect(model.details.pictureGeneration == generation + 1)
    }

    @Test("J and K scroll the description; another selection starts at its top")
    func scrolling() {
        let lines = (1...40).map { "line \($0)" }.joined(separator: "\n")
        var model = Self.openModel(size: Self.narrow, description: lines)
        #expect(ScreenRenderer.render(model).text.contains("line 1\n") || ScreenRenderer.render(model).text.contains("line 1 "))
        model.press(.character("J"), .character("J"))
        #expect(model.detailsScroll == 2)
        #expect(!ScreenRenderer.render(model).text.contains("line 2 ") && ScreenRenderer.render(model).text.contains("line 3"))
        model.press(.character("K"))
        #expect(model.detailsScroll == 1)
        model.press(.character("j"))
        #expect(model.detailsScroll == 0)
    }

    @Test("J with the pane closed says how to open it")
    func scrollingClosed() {
        var model = Fixture.model()
        model.press(.character("J"))
        #expect(model.message?.text.contains("Tab") == true)
    }

    @Test("a hostile description: escapes and bidi controls never reach the screen; 100,000 characters and 5,000 timestamp lines stay bounded")
    func hostileDescription() {
        let escapes = "\u{1B}]52;c;ZXZpbA==\u{07}\u{1B}[2J\u{202E}evil\u{9B}31m"
        let huge = escapes + "\n" + String(repeating: "word ", count: 20_000) + "\n" + (0..<5_000).map { "\($0 / 60):\(String(format: "%02d", $0 % 60)) chapter \($0)" }.joined(separator: "\n")
        var model = Self.openModel(size: Self.wide, description: huge)
        for _ in 0..<50 { model.press(.character("J")) }
        let grid = ScreenRenderer.render(model)
        #expect(!grid.cells.contains { $0.character.unicodeScalars.contains(where: DisplayText.isControl) })
        let lines = DescriptionText.lines(huge, width: 60, first: 0, count: 1_000_000)
        #expect(lines.count < 3_000)
    }

    @Test("the help screen lists the pane's keys")
    func help() {
        let lines = HelpText.lines(KeyMap(overrides: [:])).map { "\($0.keys) \($0.text)" }.joined(separator: "\n")
        #expect(lines.contains("Tab") && lines.contains("Details pane"))
    }
}
