internal import CChafa

/// Draws a decoded picture into a grid of cells with libchafa's symbols mode: the canvas is drawn
/// with `chafa_canvas_draw_all_pixels`, then each cell is read back with `chafa_canvas_get_char_at`
/// and `chafa_canvas_get_colors_at`.
public struct SymbolRenderer: Sendable {
    /// The colours the cells carry.
    public var colors: PictureColors
    /// Whether the terminal shows UTF-8 (block symbols); otherwise ASCII symbols only.
    public var unicode: Bool

    /// A renderer for a terminal with `colors`; `unicode` false keeps to ASCII symbols.
    public init(colors: PictureColors, unicode: Bool = true) {
        self.colors = colors
        self.unicode = unicode
    }

    /// The cell size (columns, rows) a 16:9 thumbnail fills at `columns` wide, with terminal
    /// cells twice as tall as wide, capped at `maxRows`.
    public static func size(forColumns columns: Int, maxRows: Int) -> (columns: Int, rows: Int) {
        let rows = min(maxRows, max(1, (columns * 9 + 16) / 32))
        let fitted = rows == maxRows ? min(columns, max(1, rows * 32 / 9)) : columns
        return (max(fitted, 1), max(rows, 1))
    }

    /// `image` drawn into `columns` × `rows` cells.
    public func render(_ image: RGBAImage, columns: Int, rows: Int) throws(ThumbnailError) -> Picture {
        guard columns > 0, rows > 0, columns <= 1_000, rows <= 1_000 else { throw .drawingFailed }
        Self.configureOnce
        guard let config = chafa_canvas_config_new() else { throw .drawingFailed }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
        chafa_canvas_config_set_canvas_mode(config, canvasMode)
        guard let symbols = chafa_symbol_map_new() else { throw .drawingFailed }
        defer { chafa_symbol_map_unref(symbols) }
        let tags = unicode ? CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue : CHAFA_SYMBOL_TAG_ASCII.rawValue
        chafa_symbol_map_add_by_tags(symbols, ChafaSymbolTags(rawValue: tags))
        chafa_canvas_config_set_symbol_map(config, symbols)
        guard let canvas = chafa_canvas_new(config) else { throw .drawingFailed }
        defer { chafa_canvas_unref(canvas) }
        image.pixels.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 4))
        }
        var cells: [PictureCell] = []
        cells.reserveCapacity(columns * rows)
        for row in 0..<Int32(rows) {
            for column in 0..<Int32(columns) {
                let code = chafa_canvas_get_char_at(canvas, column, row)
                let character = Unicode.Scalar(code).map(Character.init) ?? " "
                var foreground: Int32 = -1, background: Int32 = -1
                switch colors {
                case .direct: chafa_canvas_get_colors_at(canvas, column, row, &foreground, &background)
                case .indexed256: chafa_canvas_get_raw_colors_at(canvas, column, row, &foreground, &background)
                case .none: break
                }
                cells.append(PictureCell(character: character, foreground: paletteColor(foreground), background: paletteColor(background)))
            }
        }
        return Picture(width: columns, height: rows, colors: colors, cells: cells)
    }

    /// `value` from the canvas as a colour of ``colors``: the palette's pseudo-indices above 255
    /// (transparent, the terminal's foreground or background) become the default, `-1`.
    private func paletteColor(_ value: Int32) -> Int32 {
        colors == .indexed256 && value > 255 ? -1 : value
    }

    private var canvasMode: ChafaCanvasMode {
        switch colors {
        case .direct: CHAFA_CANVAS_MODE_TRUECOLOR
        case .indexed256: CHAFA_CANVAS_MODE_INDEXED_240
        case .none: CHAFA_CANVAS_MODE_FGBG
        }
    }

    /// One thread per drawing (symbols or pixels): drawings run off the key path already, and the
    /// machine's cores are for the rest of the program.
    static let configureOnce: Void = chafa_set_n_threads(1)
}
