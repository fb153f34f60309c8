import Foundation
import Logging
import MeTubeCore
import ServiceLifecycle

/// Seeds an empty hub with the demo catalog and then publishes a new upload every few seconds,
/// so a demo visibly receives new videos.
public struct DemoPublisher: Service {
    private let repository: any HubRepository
    private let library: DemoCatalog
    private let interval: Duration
    private let logger: Logger

    /// Creates a publisher of `library` (216 channels and 10,000 videos ending now by default)
    /// that adds one video every `interval`.
    public init(
        repository: any HubRepository, library: DemoCatalog = DemoCatalog(newest: Date()),
        interval: Duration = .seconds(5), logger: Logger
    ) {
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
            var video = library.video(index)
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
        let videosByChannel = Dictionary(grouping: library.videos().reversed(), by: \.channelID)
        for channel in channels {
            _ = try await repository.ingest(FeedIngestion(channelID: channel.id, channelTitle: channel.title, videos: videosByChannel[channel.id] ?? []))
        }
        logger.info("demo library seeded", metadata: ["channels": "\(channels.count)", "videos": "\(library.videoCount)"])
    }
}
