import Foundation
import Logging
import MeTubeCore
import MeTubeDemo
import MeTubeServer
import ServiceLifecycle

/// Seeds an empty hub with the demo catalog (a few of its newest videos premieres and a stream,
/// ``DemoPremieres``) and then publishes a new upload every few seconds,
/// so a demo visibly receives new videos; their thumbnails point at the server itself
/// (``DemoThumbnails``), and their view and rating counts are made up from their number.
public struct DemoPublisher: Service {
    private let repository: any HubRepository
    private let library: DemoCatalog
    private let interval: Duration
    private let logger: Logger
    private let thumbnails: DemoThumbnails

    /// Creates a publisher of `library` (216 channels and 10,000 videos ending now by default)
    /// that adds one video every `interval`.
    public init(
        repository: any HubRepository, library: DemoCatalog = DemoCatalog(newest: Date()),
        interval: Duration = .seconds(5), thumbnails: DemoThumbnails = DemoThumbnails(), logger: Logger
    ) {
        self.thumbnails = thumbnails
        self.repository = repository
        self.library = library
        self.interval = interval
        self.logger = logger
    }

    /// Publishes one upload every `interval` until shutdown (call `seedIfEmpty` first).
    public func run() async throws {
        let channels = library.channels()
        guard !channels.isEmpty else { return }
        // Numbering from the clock keeps ids unique across restarts on the same database: a run
        // publishes at most one video per second, so it never reaches the next run's first number.
        var index = library.videoCount + Int(Date().timeIntervalSince1970)
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            var video = Self.counted(thumbnails.pointing(library.video(index)), index)
            video.published = Date()
            let channel = channels.first { $0.id == video.channelID }
            _ = try await repository.ingest(FeedIngestion(channelID: video.channelID, channelTitle: channel?.title, videos: [video]))
            logger.info("demo upload", metadata: ["channel": "\(video.channelID)", "video": "\(video.id)", "title": "\(video.title)"])
            index += 1
        }
    }

    /// Registers the library's channels and stores its videos when the hub has no channels.
    public func seedIfEmpty() async throws {
        guard try await repository.registeredChannelIDs().isEmpty else { return }
        _ = try await repository.register(channelIDs: library.channels().map(\.id))
        try await ingestCatalog()
        logger.info("demo library seeded", metadata: ["channels": "\(library.channels().count)", "videos": "\(library.videoCount)"])
    }

    /// Points the catalog's stored thumbnails at this server once it listens (see
    /// ``DemoThumbnails``): written in place, without new seqs, before clients are told the
    /// server listens, and again on every start, as the port may have changed.
    public func pointThumbnails() async throws {
        try await ingestCatalog()
    }

    /// Stores the catalog's videos with their counts, and their thumbnails pointing here once the
    /// address is known.
    private func ingestCatalog() async throws {
        let videos = library.videos().enumerated().map { index, video in
            DemoPremieres.apply(to: Self.counted(thumbnails.pointing(video), index), index: index, newest: library.newest)
        }
        let videosByChannel = Dictionary(grouping: videos.reversed(), by: \.channelID)
        for channel in library.channels() {
            _ = try await repository.ingest(FeedIngestion(channelID: channel.id, channelTitle: channel.title, videos: videosByChannel[channel.id] ?? []))
        }
    }

    /// `video`, the `index`-th of the catalog, with views and ratings: older ones have more.
    private static func counted(_ video: Video, _ index: Int) -> Video {
        var video = video
        video.views = (index % 997) * 1_013 + index * 37 + 12
        video.starRatings = (video.views ?? 0) / 40
        return video
    }
}
