import Hummingbird
import Logging
import Metrics
import Prometheus

/// Prometheus metrics: swift-metrics bootstrapped with a Prometheus registry, served as text at
/// `GET /metrics` on a port of its own.
///
/// Exported: `hb_requests_total` and the `http_server_request_duration` histogram per route, method
/// and status (Hummingbird's `MetricsMiddleware`), ``IngestionMetrics``, the database pool's wait
/// (``PoolWaitMetrics``), the database's availability (``StorageAvailabilityMetrics``), and the
/// gauges `metube_users` and `metube_channels`, counted at each scrape.
public struct ServerMetrics: Sendable {
    /// The registry every metric of the process is kept in.
    public let registry: PrometheusCollectorRegistry
    /// The port `/metrics` listens on; 0 picks a free one.
    public let port: Int
    /// Called once `/metrics` listens, with the bound host and port.
    public let onListening: @Sendable (_ host: String, _ port: Int) async -> Void

    /// Makes Prometheus the process's swift-metrics backend; call once, before the server is built.
    public static func bootstrap(port: Int, onListening: @escaping @Sendable (_ host: String, _ port: Int) async -> Void = { _, _ in }) -> ServerMetrics {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[PoolWaitMetrics.label] = PoolWaitMetrics.buckets
        MetricsSystem.bootstrap(factory)
        IngestionMetrics.all.forEach { $0.increment(by: 0) }
        StorageAvailabilityMetrics.exportInitialValues()
        FeedSourceMetrics.exportInitialValues()
        return ServerMetrics(registry: registry, port: port, onListening: onListening)
    }

    /// The application serving `GET /metrics` on `host` and ``port``.
    /// `counts` answers the number of mark-sync users and of registered channels.
    func endpoint(counts: @escaping @Sendable () async throws -> (users: Int, channels: Int), host: String, logger: Logger) -> some ApplicationProtocol {
        let router = Router()
        let registry = registry
        let users = Gauge(label: "metube_users")
        let channels = Gauge(label: "metube_channels")
        router.get("/metrics") { _, _ in
            let (userCount, channelCount) = try await counts()
            users.record(userCount)
            channels.record(channelCount)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        let onListening = onListening
        return Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "metube-server-metrics"),
            onServerRunning: { channel in await onListening(host, channel.localAddress?.port ?? 0) },
            logger: logger)
    }
}
