/// How a picture's cells carry colour, as the terminal can show it.
public enum PictureColors: String, Sendable, Equatable {
    /// 24-bit colours, `0xRRGGBB`.
    case direct
    /// The 256-colour palette's indices.
    case indexed256
    /// No colour (`NO_COLOR`, or a terminal without colours): the shapes of the symbols only.
    case none
}

/// One cell of a picture drawn with symbols: a character and its two colours (`-1` for the
/// terminal's default).
public struct PictureCell: Sendable, Equatable {
    /// The symbol (a block, a space, …).
    public var character: Character
    /// The symbol's colour.
    public var foreground: Int32
    /// The colour behind it.
    public var background: Int32

    /// A cell drawing `character` in `foreground` on `background`.
    public init(character: Character, foreground: Int32, background: Int32) {
        self.character = character
        self.foreground = foreground
        self.background = background
    }
}

/// A thumbnail drawn as terminal cells, ready to copy into a screen grid: ncurses then owns every
/// cell, so the picture survives tmux, ssh, scrolling and redraws.
public struct Picture: Sendable, Equatable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// What the cells' colours are.
    public let colors: PictureColors
    /// The cells, row by row.
    public let cells: [PictureCell]
    /// The same picture in pixels (kitty or sixel), drawn over the cells where the terminal can.
    public var pixels: PixelPicture?

    /// A picture of `width` × `height` cells, with its `pixels` form if any.
    public init(width: Int, height: Int, colors: PictureColors, cells: [PictureCell], pixels: PixelPicture? = nil) {
        precondition(cells.count == width * height, "a picture has width × height cells")
        self.width = width
        self.height = height
        self.colors = colors
        self.cells = cells
        self.pixels = pixels
    }

    /// The cell at `column`, `row`.
    public subscript(column: Int, row: Int) -> PictureCell { cells[row * width + column] }

    /// The rows as text: what a golden test compares.
    public var text: String {
        (0..<height).map { row in String((0..<width).map { self[$0, row].character }) }.joined(separator: "\n")
    }
}
