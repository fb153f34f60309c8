import Foundation
import MeTubeCore
import MeTubeThumbnails

/// Feeds the details pane from outside the model, never making a key wait: the selected video's
/// description is read from the store (one video, on demand); its picture is read from the
/// thumbnail cache, decoded and drawn on another task; the visible rows' and the next page's
/// thumbnails are fetched in the background. Results arrive through the event inbox.
/// Used on the event loop's thread only.
final class DetailsLoader {
    private let inbox: EventInbox
    private let cache: ThumbnailCache?
    private let fetcher: ThumbnailFetcher?
    private let drawing: ThumbnailDrawing
    private let pictureTicket = LatestTicket()
    private var describedVideoID: String?
    private var pictureKey: PictureKey?
    private var wantedRows: Range<Int>?
    private var wantedGeneration = -1

    private struct PictureKey: Equatable {
        var videoID: String
        var columns: Int
        var rows: Int
        var generation: Int
    }

    /// A loader posting to `inbox`; `cache` `nil` means no thumbnails; `pixels` draws pictures in
    /// pixels too.
    init(inbox: EventInbox, cache: ThumbnailCache?, colors: PictureColors, unicode: Bool, pixels: PixelRenderer? = nil) {
        self.inbox = inbox
        self.cache = cache
        drawing = ThumbnailDrawing(renderer: SymbolRenderer(colors: colors, unicode: unicode), pixels: pixels)
        fetcher = cache.map { cache in
            ThumbnailFetcher(cache: cache) { videoID, failure in
                inbox.post(.details(.fetched(videoID: videoID, failure: failure?.description)))
            }
        }
    }

    /// Starts what the pane needs for `model` and returns what is known at once: the selected
    /// video's description, and that its picture is on its way.
    func update(for model: ScreenModel, source: some LibrarySource) -> [ModelEvent] {
        guard let layout = model.detailsLayout, let video = model.selectedVideo else { return [] }
        var events: [ModelEvent] = []
        if describedVideoID != video.id {
            describedVideoID = video.id
            events.append(.details(.description(videoID: video.id, text: (try? source.description(of: video.id)) ?? nil)))
        }
        guard let cache, let fetcher, layout.pictureColumns > 0 else { return events }
        requestThumbnails(for: model, fetcher: fetcher)
        let key = PictureKey(videoID: video.id, columns: layout.pictureColumns, rows: layout.pictureRows, generation: model.details.pictureGeneration)
        guard key != pictureKey else { return events }
        pictureKey = key
        if model.details.picture?.videoID != video.id {
            events.append(.details(.picture(DetailsPicture(videoID: video.id, columns: key.columns, rows: key.rows, state: .waiting))))
        }
        let (inbox, drawing, pictureTicket) = (inbox, drawing, pictureTicket)
        let ticket = pictureTicket.next()
        Task.detached {
            // Another selection since: its own task draws it; this one would only take the CPU.
            guard pictureTicket.isCurrent(ticket) else { return }
            await cache.keep(video.id)
            let state: PictureState
            switch await drawing.draw(video.id, from: cache, columns: key.columns, rows: key.rows) {
            case .success(let picture)?: state = .ready(picture)
            case .failure(let reason)?: state = .unavailable(reason.description)
            case nil: state = await fetcher.failure(of: video.id).map { .unavailable($0.description) } ?? .waiting
            }
            inbox.post(.details(.picture(DetailsPicture(videoID: video.id, columns: key.columns, rows: key.rows, state: state))))
        }
        return events
    }

    /// Asks for the thumbnails of the rows on screen and the next page, the selected one first.
    private func requestThumbnails(for model: ScreenModel, fetcher: ThumbnailFetcher) {
        let first = model.feedCursor.scroll
        let rows = first..<min(first + 2 * model.listHeight, model.rows.count)
        guard rows != wantedRows || model.details.pictureGeneration != wantedGeneration else { return }
        wantedRows = rows
        wantedGeneration = model.details.pictureGeneration
        let selected = model.feedCursor.selection
        let order = [selected] + rows.filter { $0 != selected }
        let requests = order.compactMap { row -> ThumbnailFetcher.Request? in
            guard row < model.rows.count else { return nil }
            let video = model.library.videos[model.rows[row]]
            return ThumbnailAddress.fetchURL(thumbnailURL: video.thumbnailURL, videoID: video.id).map { .init(videoID: video.id, url: $0) }
        }
        let (cache, selectedID) = (cache, requests.first?.videoID)
        Task {
            await cache?.keep(selectedID)
            await fetcher.want(requests)
        }
    }
}
