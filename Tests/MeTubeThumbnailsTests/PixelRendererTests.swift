import Testing
@testable import MeTubeThumbnails

/// The fixture JPEG as kitty and sixel escapes through libchafa's pixel modes.
@Suite struct PixelRendererTests {
    static func render(_ mode: PixelMode, cellWidth: Int = 10, cellHeight: Int = 20) throws -> PixelPicture {
        let image = try JPEGDecoder().decode(ThumbnailFixture.bytes("thumbnail-320x180.jpg"))
        return try PixelRenderer(mode: mode, cellWidth: cellWidth, cellHeight: cellHeight).render(image, columns: 40, rows: 12)
    }

    @Test func kittyCarriesItsImageIDAsksNoAnswerAndKeepsTheCursor() throws {
        let picture = try Self.render(.kitty)
        #expect(picture.escape.hasPrefix("\u{1B}_Ga=T,i=\(PixelPicture.kittyImageID),q=2,C=1,f=32,"))
        #expect(picture.escape.contains(",c=40,r=12,"))
        #expect(picture.escape.hasSuffix("\u{1B}\\"))
        #expect(picture.clearSequence == "\u{1B}_Ga=d,d=I,i=\(PixelPicture.kittyImageID)\u{1B}\\")
    }

    @Test func kittySendsNoMorePixelsThanTheImageHas() throws {
        // 40 × 20 px cells would make 800 × 240; the image has 320 × 180.
        let picture = try Self.render(.kitty, cellWidth: 20, cellHeight: 20)
        #expect(picture.escape.contains("s=320,v=180,"))
        #expect(picture.escape.utf8.count < 400_000)
    }

    @Test func sixelIsADeviceControlStringInTheCellsPixels() throws {
        let picture = try Self.render(.sixel)
        #expect(picture.escape.hasPrefix("\u{1B}P"))
        let introducer = try #require(picture.escape.firstIndex(of: "q"))
        #expect(picture.escape[..<introducer].allSatisfy { $0 == "\u{1B}" || $0 == "P" || $0 == ";" || $0.isNumber })
        #expect(picture.escape.contains("\"1;1;400;240"))
        #expect(picture.escape.hasSuffix("\u{1B}\\"))
        #expect(picture.clearSequence == nil)
    }

    @Test func escapesAreBoundedAndDeterministic() throws {
        for mode in [PixelMode.kitty, .sixel] {
            let first = try Self.render(mode)
            #expect(first.escape.utf8.count <= PixelRenderer.escapeByteLimit)
            #expect(first == (try Self.render(mode)))
        }
    }

    @Test func unknownCellSizesFallBackToTenByTwenty() {
        let renderer = PixelRenderer(mode: .sixel, cellWidth: 0, cellHeight: 5_000)
        #expect(renderer.cellWidth == 10 && renderer.cellHeight == 20)
    }
}
