import Hummingbird
import ServiceLifecycle

/// A part of the server that this module does not know, added by whoever starts the server:
/// `metube-server --demo` adds the demo catalog (`DemoAddOn`, in MeTubeDemoServer). It is
/// installed once the storage is open, before any service starts.
public protocol ServerAddOn: Sendable {
    /// Whether the channel catalog (``ChannelCatalogService``: backfills and lengths from yt-dlp
    /// or the Data API) may run beside it; false for an add-on whose channels YouTube does not
    /// know and whose videos' lengths it gives itself. True unless the add-on says otherwise.
    var allowsChannelCatalog: Bool { get }

    /// Prepares over the open hub `repository` (what it writes there is in place before the first
    /// request), adds its routes to `router`, and says what the server runs for it.
    func install(repository: any HubRepository, router: Router<ServerRequestContext>) async throws -> InstalledAddOn
}

extension ServerAddOn {
    /// True: the add-on's channels, if any, are YouTube's.
    public var allowsChannelCatalog: Bool { true }
}

/// What an installed ``ServerAddOn`` adds to the running server.
public struct InstalledAddOn: Sendable {
    /// Run beside the server's own services until shutdown.
    public var services: [any Service]
    /// Called once the server listens, with the bound host and port, before
    /// ``ServerConfiguration/onListening`` tells anyone else.
    public var listening: @Sendable (_ host: String, _ port: Int) async -> Void

    /// The parts of an installed add-on: its `services` and what it does once the server listens.
    public init(services: [any Service] = [], listening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }) {
        self.services = services
        self.listening = listening
    }
}
