/// A thumbnail as a terminal graphics escape (kitty or sixel), drawn at the cursor over
/// `columns` × `rows` cells. The terminal owns its pixels, so whoever writes it clears it too:
/// kitty by ``kittyImageID`` (``clearSequence``), sixel by repainting the cells beneath.
public struct PixelPicture: Sendable, Equatable {
    /// The image id every kitty picture of metube carries, so one sequence deletes it.
    public static let kittyImageID = 3174

    /// The protocol of ``escape``.
    public let mode: PixelMode
    /// Cells the picture covers.
    public let columns: Int, rows: Int
    /// The bytes to write at the picture's top left cell.
    public let escape: String

    /// A picture drawn by `escape` over `columns` × `rows` cells.
    public init(mode: PixelMode, columns: Int, rows: Int, escape: String) {
        self.mode = mode
        self.columns = columns
        self.rows = rows
        self.escape = escape
    }

    /// Deletes a kitty picture (and frees its data); `nil` for sixel, whose cells are repainted.
    public var clearSequence: String? {
        mode == .kitty ? "\u{1B}_Ga=d,d=I,i=\(Self.kittyImageID)\u{1B}\\" : nil
    }
}
