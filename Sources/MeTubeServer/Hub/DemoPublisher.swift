import Foundation
import Logging
import MeTubeCore
import ServiceLifecycle

/// Seeds an empty hub with the demo catalog and then publishes a new upload every few seconds,
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
        let channels = library.channels()
        _ = try await repository.register(channelIDs: channels.map(\.id))
        let videos = library.videos().enumerated().map { Self.counted(thumbnails.pointing($0.element), $0.offset) }
        let videosByChannel = Dictionary(grouping: videos.reversed(), by: \.channelID)
        for channel in channels {
            _ = try await repository.ingest(FeedIngestion(channelID: channel.id, channelTitle: channel.title, videos: videosByChannel[channel.id] ?? []))
        }
        logger.info("demo library seeded", metadata: ["channels": "\(channels.count)", "videos": "\(library.videoCount)"])
    }

    /// `video`, the `index`-th of the catalog, with views and ratings: older ones have more.
    private static func counted(_ video: Video, _ index: Int) -> Video {
        var video = video
        video.views = (index % 997) * 1_013 + index * 37 + 12
        video.starRatings = (video.views ?? 0) / 40
        return video
    }
}
