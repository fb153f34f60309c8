import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeThumbnails

/// `metube show VIDEO`: one video's details as text or JSON, for scripts: what the details pane
/// shows, with the description's chapters and links; `--thumbnail` draws its cached picture.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print one video's details: channel, date, duration, views, mark, description, chapters and links.",
        discussion: """
            Text goes through the same display safety as the TUI (no escape sequences or bidi controls reach the terminal). \
            --json prints the same as one object (see the README for its fields). --thumbnail draws the cached thumbnail with \
            coloured block symbols first, fetching it into the thumbnail cache when it is not there (10 s at most); in pixels \
            instead when [tui] thumbnails is "kitty" or "sixel" and the output is a terminal. \
            Exit status 4 when the video is not in the library.
            """
    )

    @OptionGroup var store: StoreAccess

    @Argument(help: ArgumentHelp("The video id, or a watch, youtu.be or shorts URL.", valueName: "video"))
    var video: String

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Draw the thumbnail first (symbols, in colour unless NO_COLOR is set).")
    var thumbnail = false

    @Option(help: "Columns of the drawn thumbnail (8…200).")
    var columns = 40

    func validate() throws {
        guard (8...200).contains(columns) else { throw ValidationError("--columns must be 8…200") }
    }

    func run() async throws {
        guard let videoID = VideoID.extract(from: video) else {
            throw fail("\(DisplayText.line(video, limit: 60)) is not a YouTube video id (11 characters of A-Z a-z 0-9 _ -) or video URL", code: ExitStatus.badInput)
        }
        let opened = try store.openStore()
        let library = opened.library()
        guard let found = library.video(videoID) else { throw fail("no video \(videoID) in the library", code: ExitStatus.notFound) }
        let description = try withStoreErrors { () throws(StoreError) in try opened.description(of: videoID) }
        let details = ShowOutput(found, library: library, description: description)
        if thumbnail { try await drawThumbnail(of: found) }
        if json {
            try printJSON(details)
        } else {
            print(details.text)
        }
    }

    /// Draws `video`'s thumbnail from the cache, fetching it first when it is not cached.
    private func drawThumbnail(of video: Video) async throws {
        let settings = try store.settings()
        let cache = ThumbnailCache(directory: ThumbnailCache.defaultDirectory(), byteLimit: settings.whole(.thumbnailCache) << 20)
        let environment = ProcessInfo.processInfo.environment
        let colors: PictureColors = environment["NO_COLOR"].map { !$0.isEmpty } == true ? .none : .direct
        let size = SymbolRenderer.size(forColumns: columns, maxRows: columns)
        let pixelMode = settings.text(.thumbnails).flatMap(PixelMode.init(rawValue:))
        let pixels = colors == .none || isatty(STDOUT_FILENO) != 1 ? nil : pixelMode.map { PixelRenderer(mode: $0, terminal: STDOUT_FILENO) }
        let drawing = ThumbnailDrawing(renderer: SymbolRenderer(colors: colors), pixels: pixels)
        if await cache.read(video.id) == nil, let url = ThumbnailAddress.fetchURL(thumbnailURL: video.thumbnailURL, videoID: video.id) {
            let (ended, endedSink) = AsyncStream.makeStream(of: ThumbnailError?.self)
            let fetcher = ThumbnailFetcher(cache: cache) { _, failure in
                endedSink.yield(failure)
                endedSink.finish()
            }
            await fetcher.want([ThumbnailFetcher.Request(videoID: video.id, url: url)])
            for await failure in ended {
                if let failure { throw fail("no thumbnail: \(failure.description)", code: ExitStatus.failure) }
            }
        }
        switch await drawing.draw(video.id, from: cache, columns: size.columns, rows: size.rows) {
        case .success(let picture)?:
            // A kitty picture leaves the cursor at its top left: the text goes below its rows.
            if let pixels = picture.pixels { print(pixels.escape + String(repeating: "\n", count: pixels.mode == .kitty ? pixels.rows - 1 : 0)) } else { print(picture.ansiText) }
        case .failure(let error)?: throw fail("no thumbnail: \(error.description)", code: ExitStatus.failure)
        case nil: throw fail("no thumbnail for \(video.id)", code: ExitStatus.failure)
        }
    }
}
