/// A terminal graphics protocol a picture can be drawn with in pixels.
public enum PixelMode: String, Sendable, Equatable {
    /// The kitty graphics protocol.
    case kitty
    /// DEC sixel graphics.
    case sixel
}
