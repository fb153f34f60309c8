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
}
