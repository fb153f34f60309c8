/// The role of a piece of text on screen; the terminal backend picks colours and attributes.
public enum CellStyle: UInt8, Sendable, CaseIterable {
    case normal, header, dim, accent, synced, pending, conflict, offline, status, error, notice
}

/// One terminal cell: a character and how to draw it. The right half of a wide character is a
/// continuation cell of width 0.
public struct Cell: Sendable, Equatable {
    /// The character drawn here (a space in a continuation cell).
    public var character: Character
    /// Columns the character takes: 1, 2, or 0 for the right half of a wide character.
    public var width: UInt8
    /// How the character is drawn.
    public var style: CellStyle
    /// Whether the cell is drawn in inverse video (the selected row).
    public var inverse: Bool
    /// A picture's own colours, drawn instead of the style's (a thumbnail's cells).
    public var colors: CellColors? = nil

    /// An empty cell.
    public static let blank = Cell(character: " ", width: 1, style: .normal, inverse: false)
}

/// The two colours of a picture's cell: palette indices, or `0xRRGGBB` when `isDirect`; `-1` is
/// the terminal's default.
public struct CellColors: Sendable, Equatable {
    /// The symbol's colour.
    public var foreground: Int32
    /// The colour behind it.
    public var background: Int32
    /// Whether the colours are 24-bit (else palette indices).
    public var isDirect: Bool
}

/// A screen's worth of cells in memory: what the renderer draws and the backend copies, and what
/// the golden tests compare.
public struct CellGrid: Sendable, Equatable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// The cells, row by row.
    public private(set) var cells: [Cell]

    /// A blank grid of `width` × `height`.
    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The cell at `row`, `column`.
    public subscript(row: Int, column: Int) -> Cell {
        get { cells[row * width + column] }
        set { cells[row * width + column] = newValue }
    }

    /// The cells of `row`.
    public func row(_ row: Int) -> ArraySlice<Cell> { cells[(row * width)..<((row + 1) * width)] }

    /// Writes `text` from `column` on `row`, within `limit` columns (to the right edge when `nil`),
    /// and returns the column after the last one written. A wide character that would not fit is
    /// left out, and the columns it would have taken stay as they were.
    @discardableResult
    public mutating func put(_ text: some StringProtocol, row: Int, column: Int, style: CellStyle = .normal, limit: Int? = nil) -> Int {
        guard row >= 0, row < height else { return column }
        let end = min(width, limit.map { column + $0 } ?? width)
        var position = max(column, 0)
        for character in text {
            let columns = TextWidth.of(character)
            if columns == 0 { continue }
            guard position + columns <= end else { break }
            let base = row * width + position
            cells[base] = Cell(character: character, width: UInt8(columns), style: style, inverse: false)
            if columns == 2 { cells[base + 1] = Cell(character: " ", width: 0, style: style, inverse: false) }
            position += columns
        }
        return position
    }

    /// Blanks `row` from `column` to the right edge, in `style`.
    public mutating func clear(row: Int, from column: Int = 0, style: CellStyle = .normal) {
        guard row >= 0, row < height, column < width else { return }
        for index in (row * width + max(column, 0))..<((row + 1) * width) {
            cells[index] = Cell(character: " ", width: 1, style: style, inverse: false)
        }
    }

    /// Draws every cell of `row` in inverse video.
    public mutating func invert(row: Int) {
        guard row >= 0, row < height else { return }
        for index in (row * width)..<((row + 1) * width) { cells[index].inverse = true }
    }

    /// The text of `row`, wide characters once, trailing spaces removed.
    public func text(ofRow row: Int) -> String {
        var line = ""
        for cell in self.row(row) where cell.width > 0 { line.append(cell.character) }
        while line.last == " " { line.removeLast() }
        return line
    }

    /// The whole screen as text, one line a row: what a golden test compares.
    public var text: String {
        (0..<height).map { text(ofRow: $0) }.joined(separator: "\n")
    }
}
