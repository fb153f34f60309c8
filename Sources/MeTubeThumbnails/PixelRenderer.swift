internal import CChafa
import Foundation

/// Draws a decoded picture as a kitty or sixel escape with libchafa's pixel modes
/// (`chafa_canvas_print`), sized in the terminal's cell pixels.
public struct PixelRenderer: Sendable {
    /// The most bytes an escape may take: a 40×12-cell picture is far below it; a larger one is
    /// refused (the pane then keeps its symbols).
    public static let escapeByteLimit = 2 << 20
    /// The cell size assumed when the terminal does not say (`TIOCGWINSZ` without pixels).
    public static let fallbackCellPixels = (width: 10, height: 20)

    /// The protocol drawn.
    public var mode: PixelMode
    /// One cell's size in pixels.
    public var cellWidth: Int, cellHeight: Int

    /// A renderer for `mode` on a terminal whose cells are `cellWidth` × `cellHeight` pixels;
    /// sizes out of 2…64 pixels are taken as unknown (``fallbackCellPixels``).
    public init(mode: PixelMode, cellWidth: Int, cellHeight: Int) {
        let known = (2...64).contains(cellWidth) && (2...64).contains(cellHeight)
        self.mode = mode
        self.cellWidth = known ? cellWidth : Self.fallbackCellPixels.width
        self.cellHeight = known ? cellHeight : Self.fallbackCellPixels.height
    }

    /// A renderer for `mode` on the terminal at `descriptor`, its cell size from `TIOCGWINSZ`
    /// (``fallbackCellPixels`` when the terminal gives no pixel size).
    public init(mode: PixelMode, terminal descriptor: Int32) {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            self.init(mode: mode, cellWidth: 0, cellHeight: 0)
            return
        }
        self.init(mode: mode, cellWidth: Int(size.ws_xpixel) / Int(size.ws_col), cellHeight: Int(size.ws_ypixel) / Int(size.ws_row))
    }

    /// `image` as an escape covering `columns` × `rows` cells.
    public func render(_ image: RGBAImage, columns: Int, rows: Int) throws(ThumbnailError) -> PixelPicture {
        guard columns > 0, rows > 0, columns <= 1_000, rows <= 1_000 else { throw .drawingFailed }
        SymbolRenderer.configureOnce
        guard let config = chafa_canvas_config_new() else { throw .drawingFailed }
        defer { chafa_canvas_config_unref(config) }
        let cell = canvasCell(for: image, columns: columns, rows: rows)
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_cell_geometry(config, Int32(cell.width), Int32(cell.height))
        chafa_canvas_config_set_pixel_mode(config, mode == .kitty ? CHAFA_PIXEL_MODE_KITTY : CHAFA_PIXEL_MODE_SIXELS)
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        guard let canvas = chafa_canvas_new(config) else { throw .drawingFailed }
        defer { chafa_canvas_unref(canvas) }
        image.pixels.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4))
        }
        guard let terminal = Self.terminalInfo() else { throw .drawingFailed }
        defer { chafa_term_info_unref(terminal) }
        guard let printed = chafa_canvas_print(canvas, terminal) else { throw .drawingFailed }
        defer { g_string_free(printed, 1) }
        let length = Int(printed.pointee.len)
        guard length <= Self.escapeByteLimit else { throw .drawingFailed }
        let escape = String(decoding: UnsafeRawBufferPointer(start: printed.pointee.str, count: length), as: UTF8.self)
        return PixelPicture(mode: mode, columns: columns, rows: rows, escape: escape)
    }

    /// The cell size the canvas is drawn at. Sixel pixels are the terminal's own, so its cells
    /// are the real ones; kitty scales the image into its cells, so no more pixels are sent than
    /// the image has.
    private func canvasCell(for image: RGBAImage, columns: Int, rows: Int) -> (width: Int, height: Int) {
        guard mode == .kitty else { return (cellWidth, cellHeight) }
        return (max(1, min(cellWidth, image.width / columns)), max(1, min(cellHeight, image.height / rows)))
    }

    /// libchafa's fallback terminal, whose kitty image starts with metube's image id, asks for no
    /// answer (`q=2`, which would arrive as keys) and leaves the cursor where it was (`C=1`).
    private static func terminalInfo() -> OpaquePointer? {
        guard let info = chafa_term_db_get_fallback_info(chafa_term_db_get_default()) else { return nil }
        let begin = "\u{1B}_Ga=T,i=\(PixelPicture.kittyImageID),q=2,C=1,f=%1,s=%2,v=%3,c=%4,r=%5,m=1\u{1B}\\"
        guard chafa_term_info_set_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1, begin, nil) != 0 else {
            chafa_term_info_unref(info)
            return nil
        }
        return info
    }
}
