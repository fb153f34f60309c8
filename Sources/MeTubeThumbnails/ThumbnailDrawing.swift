/// A cached thumbnail made into cells: decoded (bounds checked) and drawn with symbols.
public struct ThumbnailDrawing: Sendable {
    /// The decoder, with its limits.
    public var decoder: JPEGDecoder
    /// The symbol renderer, with the terminal's colours.
    public var renderer: SymbolRenderer

    /// A drawing with `renderer` and the default limits.
    public init(renderer: SymbolRenderer, decoder: JPEGDecoder = JPEGDecoder()) {
        self.renderer = renderer
        self.decoder = decoder
    }

    /// `videoID`'s cached picture drawn into `columns` × `rows`; `nil` when nothing is cached.
    /// A cached file that does not decode (damaged on disk) is removed, so it is fetched again.
    public func draw(_ videoID: String, from cache: ThumbnailCache, columns: Int, rows: Int) async -> Result<Picture, ThumbnailError>? {
        guard let cached = await cache.read(videoID) else { return nil }
        do throws(ThumbnailError) {
            return .success(try renderer.render(try decoder.decode(cached.bytes), columns: columns, rows: rows))
        } catch {
            await cache.remove(videoID)
            return .failure(error)
        }
    }
}
