import Hummingbird
import Logging
import ServiceLifecycle

/// A service (a test server) running in a service group of its own. ``stop()`` shuts it down
/// gracefully: cancelling the task that serves a NIO server can drop connections it has accepted
/// but not yet handed over, which traps ("Deinited NIOAsyncWriter without calling finish()",
/// swift-nio#2637).
public struct BackgroundService: Sendable {
    private let group: ServiceGroup

    /// Starts running `service`.
    public init(_ service: some Service, logger: Logger) {
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [], logger: logger))
        self.group = group
        Task { try await group.run() }
    }

    /// Begins the graceful shutdown and returns at once, so that `defer` blocks can call it.
    public func stop() {
        Task { [group] in await group.triggerGracefulShutdown() }
    }

    /// Serves `router` on an ephemeral port of 127.0.0.1 and returns once it listens, with the
    /// server's base URL (`http://127.0.0.1:PORT`).
    public static func serve(_ router: Router<BasicRequestContext>, label: String) async -> (service: BackgroundService, url: String) {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: label)
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger
        )
        let service = BackgroundService(app, logger: logger)
        var iterator = ports.makeAsyncIterator()
        return (service, "http://127.0.0.1:\(await iterator.next() ?? 0)")
    }
}
