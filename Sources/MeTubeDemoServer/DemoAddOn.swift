import Foundation
import Hummingbird
import Logging
import MeTubeDemo
import MeTubeServer

/// `metube-server --demo`: seeds an empty hub with the demo catalog, publishes a new upload every
/// `interval` (``DemoPublisher``) and serves the catalog's thumbnails (``DemoThumbnails``), which
/// point at the server once it listens. Its channels are made up and its videos carry their
/// lengths, so the channel catalog does not run beside it (YouTube would not know them).
public struct DemoAddOn: ServerAddOn {
    private let library: DemoCatalog
    private let interval: Duration
    private let logger: Logger

    /// False: the demo's channels have no uploads beyond its own, and it knows their lengths.
    public var allowsChannelCatalog: Bool { false }

    /// The demo of `library` (216 channels and 10,000 videos ending now by default), with one
    /// upload every `interval`.
    public init(library: DemoCatalog = DemoCatalog(newest: Date()), interval: Duration = .seconds(5), logger: Logger) {
        self.library = library
        self.interval = interval
        self.logger = logger
    }

    /// Seeds `repository` when it has no channels, adds the thumbnails' route, and points the
    /// catalog's thumbnails at the server once it listens.
    public func install(repository: any HubRepository, router: Router<ServerRequestContext>) async throws -> InstalledAddOn {
        let thumbnails = DemoThumbnails()
        let publisher = DemoPublisher(repository: repository, library: library, interval: interval, thumbnails: thumbnails, logger: logger)
        DemoThumbnails.addRoute(to: router)
        try await publisher.seedIfEmpty()
        return InstalledAddOn(services: [publisher]) { [logger] host, port in
            thumbnails.listening(host: host, port: port)
            do {
                try await publisher.pointThumbnails()
            } catch {
                logger.error("pointing the demo's thumbnails here failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
