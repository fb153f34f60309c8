import Foundation
import MeTubeThumbnails
import Testing
@testable import MeTubeTUI

/// Pixel pictures (kitty, sixel) over the details pane's picture cells: written after the grid,
/// cleared when the selection moves, the pane closes, something covers it or the screen is
/// repainted.
@Suite("Pixel overlay")
struct PixelOverlayTests {
    /// The pane open at `size` with the fixture picture ready, in `mode`'s pixels too (`nil`:
    /// symbols only).
    static func model(_ mode: PixelMode?, size: TerminalSize = DetailsPaneTests.wide) throws -> (ScreenModel, DetailsLayout) {
        var model = DetailsPaneTests.openModel(size: size)
        let layout = try #require(model.detailsLayout)
        var picture = try DetailsPaneTests.fixturePicture(columns: layout.pictureColumns, rows: layout.pictureRows)
        if let mode {
            let url = try #require(Bundle.module.url(forResource: "Fixtures/thumbnail-320x180.jpg", withExtension: nil))
            let image = try JPEGDecoder().decode(Array(try Data(contentsOf: url)))
            picture.pixels = try PixelRenderer(mode: mode, cellWidth: 10, cellHeight: 20).render(image, columns: layout.pictureColumns, rows: layout.pictureRows)
        }
        _ = model.apply(.details(.picture(DetailsPicture(videoID: model.selectedVideo!.id, columns: layout.pictureColumns, rows: layout.pictureRows, state: .ready(picture)))))
        return (model, layout)
    }

    static func frame(_ overlay: inout PixelOverlay, _ model: ScreenModel, repainted: Bool = false) -> PixelOverlay.Frame {
        overlay.frame(showing: PixelOverlay.placement(in: model, grid: ScreenRenderer.render(model)), repainted: repainted)
    }

    static let kittyClear = "\u{1B}_Ga=d,d=I,i=\(PixelPicture.kittyImageID)\u{1B}\\"

    @Test("kitty: drawn at the picture's cells once; moving the selection deletes it by id")
    func kittyFollowsTheSelection() throws {
        var (model, layout) = try Self.model(.kitty)
        var overlay = PixelOverlay()
        let shown = Self.frame(&overlay, model)
        #expect(shown.output.hasPrefix("\u{1B}7\u{1B}[\(layout.top + 1);\(layout.left + 1)H\u{1B}_Ga=T,i=\(PixelPicture.kittyImageID),"))
        #expect(shown.output.hasSuffix("\u{1B}\\\u{1B}8"))
        #expect(Self.frame(&overlay, model) == PixelOverlay.Frame())

        model.press(.character("j"))
        let moved = Self.frame(&overlay, model)
        #expect(moved.output == Self.kittyClear)
        #expect(moved.repaintRows == nil)
        #expect(overlay.shown == nil)
    }

    @Test("kitty: a resize deletes and draws again; closing the pane or help over it deletes it")
    func kittyClearsOnRepaintCloseAndCover() throws {
        var (model, _) = try Self.model(.kitty)
        var overlay = PixelOverlay()
        _ = Self.frame(&overlay, model)
        let repainted = Self.frame(&overlay, model, repainted: true)
        #expect(repainted.output.hasPrefix(Self.kittyClear + "\u{1B}7"))

        var help = model
        help.press(.character("?"))
        var covered = overlay
        #expect(Self.frame(&covered, help).output == Self.kittyClear)

        model.press(.tab)
        #expect(Self.frame(&overlay, model).output == Self.kittyClear)
    }

    @Test("sixel: curses repaints the picture's rows when it goes; nothing to delete")
    func sixelRepaintsItsRows() throws {
        var (model, layout) = try Self.model(.sixel, size: DetailsPaneTests.narrow)
        var overlay = PixelOverlay()
        let shown = Self.frame(&overlay, model)
        #expect(shown.output.hasPrefix("\u{1B}7\u{1B}[\(layout.top + 1);\(layout.left + 1)H\u{1B}P"))
        #expect(shown.repaintRows == nil)

        model.press(.character("j"))
        let moved = Self.frame(&overlay, model)
        #expect(moved.repaintRows == layout.top..<(layout.top + layout.pictureRows + 1))
        #expect(moved.output.isEmpty)
    }

    @Test("a picture without pixels (symbols) puts nothing over the cells")
    func symbolsOnly() throws {
        let (model, _) = try Self.model(nil)
        var overlay = PixelOverlay()
        #expect(Self.frame(&overlay, model) == PixelOverlay.Frame())
    }
}

/// A failed expectation names a frame's rows and the start and size of its output, not the
/// hundreds of KiB of a picture.
extension PixelOverlay.Frame: CustomTestStringConvertible {
    public var testDescription: String {
        "Frame(repaintRows: \(repaintRows.map { "\($0)" } ?? "nil"), output: \(String(output.prefix(60)).debugDescription)… \(output.utf8.count) B)"
    }
}
