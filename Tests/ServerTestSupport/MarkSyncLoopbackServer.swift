import Hummingbird
import Logging
import MeTubeAPI
import MeTubeServer
import ServiceLifecycle
import TestSupport

/// A status-only server on 127.0.0.1 with an ephemeral port, for end-to-end tests and benchmarks
/// that need real HTTP.
public final class MarkSyncLoopbackServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// The base URL, e.g. `http://127.0.0.1:53121`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts a server answering the routes of `service` on `port` (0: an ephemeral one) and
    /// returns once it listens; `firstMiddleware` sees every request first (tests inject faults
    /// with it).
    public static func start(
        service: MarkSyncService, port: Int = 0, firstMiddleware: (any RouterMiddleware<BasicRequestContext>)? = nil
    ) async throws -> MarkSyncLoopbackServer {
        let router = Router(context: BasicRequestContext.self)
        if let firstMiddleware { add(firstMiddleware, to: router) }
        router.add(middleware: ServerErrorMiddleware())
        MarkSyncRoutes(service: service).register(on: router)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "metube-status-loopback")
        logger.logLevel = .error
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "metube-server"),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let task = Task { try await group.run() }
        for await port in ports where port > 0 {
            return MarkSyncLoopbackServer(port: port, group: group, task: task)
        }
        await group.triggerGracefulShutdown()
        _ = await task.result
        throw MarkSyncErrorBody(.internalError, "The loopback status server did not start")
    }

    private static func add(_ middleware: some RouterMiddleware<BasicRequestContext>, to router: Router<BasicRequestContext>) {
        router.add(middleware: middleware)
    }

    /// Stops the server and waits until it has.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
