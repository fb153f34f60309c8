import Testing
@testable import MeTubeTUI

/// `[tui] thumbnails`: the pixel modes say at start that they are drawn as symbols.
@Suite("Thumbnail modes")
struct ThumbnailModeTests {
    @Test("kitty and sixel fall back to symbols and say so; auto, symbols and off say nothing")
    func pixelModesSayTheyFallBack() throws {
        for mode in ["kitty", "sixel"] {
            let model = Fixture.model(config: try Fixture.config("[tui]\nthumbnails = \"\(mode)\"\n"))
            #expect(model.message?.text == "thumbnails = \"\(mode)\": pixel pictures are not drawn yet; drawing symbols")
            #expect(model.details.showsPictures)
        }
        for mode in ["auto", "symbols", "off"] {
            #expect(Fixture.model(config: try Fixture.config("[tui]\nthumbnails = \"\(mode)\"\n")).message == nil)
        }
    }
}
