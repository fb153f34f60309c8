/// A cached thumbnail made into cells: decoded (bounds checked) and drawn with symbols, and in
/// pixels too when the terminal draws them.
public struct ThumbnailDrawing: Sendable {
    /// The decoder, with its limits.
    public var decoder: JPEGDecoder
    /// The symbol renderer, with the terminal's colours.
    public var renderer: SymbolRenderer
    /// The pixel renderer (kitty or sixel), when pictures are drawn in pixels.
    public var pixels: PixelRenderer?

    /// A drawing with `renderer`, `pixels` if any, and the default limits.
    public init(renderer: SymbolRenderer, pixels: PixelRenderer? = nil, decoder: JPEGDecoder = JPEGDecoder()) {
        self.renderer = renderer
        self.pixels = pixels
        self.decoder = decoder
    }

    /// `videoID`'s cached picture drawn into `columns` × `rows`; `nil` when nothing is cached.
    /// A cached file that does not decode (damaged on disk) is removed, so it is fetched again.
    public func draw(_ videoID: String, from cache: ThumbnailCache, columns: Int, rows: Int) async -> Result<Picture, ThumbnailError>? {
        guard let cached = await cache.read(videoID) else { return nil }
        do throws(ThumbnailError) {
            let image = try decoder.decode(cached.bytes)
            var picture = try renderer.render(image, columns: columns, rows: rows)
            // Too large an escape leaves the symbols, which are drawn in every terminal.
            picture.pixels = try? pixels?.render(image, columns: columns, rows: rows)
            return .success(picture)
        } catch {
            await cache.remove(videoID)
            return .failure(error)
        }
    }
}
