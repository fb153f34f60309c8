/// A decoded picture: 8-bit RGBA pixels, row by row, without padding.
public struct RGBAImage: Sendable, Equatable {
    /// Pixels across.
    public let width: Int
    /// Pixels down.
    public let height: Int
    /// `width × height × 4` bytes.
    public let pixels: [UInt8]

    /// A picture of `width` × `height` from `pixels` (`width × height × 4` bytes).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "RGBA pixel count must match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
