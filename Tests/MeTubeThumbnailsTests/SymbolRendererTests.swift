import Testing
@testable import MeTubeThumbnails

@Suite struct SymbolRendererTests {
    @Test func fixtureDecodesToItsSize() throws {
        let image = try JPEGDecoder().decode(ThumbnailFixture.bytes("thumbnail-320x180.jpg"))
        #expect(image.width == 320)
        #expect(image.height == 180)
        #expect(image.pixels.count == 320 * 180 * 4)
    }

    @Test func directColoursAreRGB() throws {
        let image = try JPEGDecoder().decode(ThumbnailFixture.bytes("thumbnail-320x180.jpg"))
        let picture = try SymbolRenderer(colors: .direct).render(image, columns: 40, rows: 12)
        #expect(picture.width == 40 && picture.height == 12)
        // The sky at the top left is blue; the sun at the top right is yellow.
        let sky = picture[0, 0].background
        #expect(sky & 0xFF > (sky >> 16) & 0xFF)
        let sun = picture[30, 3]
        let sunColour = sun.character == " " ? sun.background : sun.foreground
        #expect((sunColour >> 16) & 0xFF > 200 && sunColour & 0xFF < 120)
    }

    @Test func indexedColoursStayInThePalette() throws {
        let image = try JPEGDecoder().decode(ThumbnailFixture.bytes("thumbnail-320x180.jpg"))
        let picture = try SymbolRenderer(colors: .indexed256).render(image, columns: 40, rows: 12)
        #expect(picture.cells.allSatisfy { (-1...255).contains($0.foreground) && (-1...255).contains($0.background) })
        #expect(picture.cells.contains { $0.background >= 16 })
    }

    @Test func withoutColourNoCellHasOne() throws {
        let image = try JPEGDecoder().decode(ThumbnailFixture.bytes("thumbnail-320x180.jpg"))
        let picture = try SymbolRenderer(colors: .none).render(image, columns: 40, rows: 12)
        #expect(picture.cells.allSatisfy { $0.foreground == -1 && $0.background == -1 })
        #expect(picture.cells.contains { $0.character != " " })
    }

    @Test func asciiSymbolsOutsideUTF8() throws {
        let image = try JPEGDecoder().decode(ThumbnailFixture.bytes("thumbnail-320x180.jpg"))
        let picture = try SymbolRenderer(colors: .direct, unicode: false).render(image, columns: 40, rows: 12)
        #expect(picture.cells.allSatisfy { $0.character.isASCII })
    }

    @Test func encodedPicturesDecodeAgain() throws {
        let pixels = (0..<(64 * 36)).flatMap { index -> [UInt8] in [UInt8(index % 256), 80, 160, 255] }
        let bytes = try JPEGEncoder.encode(RGBAImage(width: 64, height: 36, pixels: pixels))
        let image = try JPEGDecoder().decode(bytes)
        #expect(image.width == 64 && image.height == 36)
    }

    @Test func sixteenByNineSizes() {
        #expect(SymbolRenderer.size(forColumns: 40, maxRows: 20) == (40, 11))
        #expect(SymbolRenderer.size(forColumns: 80, maxRows: 12) == (42, 12))
    }
}
