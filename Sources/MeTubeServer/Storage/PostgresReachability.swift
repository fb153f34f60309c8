import Logging
import PostgresNIO
import Synchronization

/// Whether the PostgreSQL database answers, as the server's own calls found it, for `/health`
/// and `/metrics` (``StorageAvailabilityMetrics``).
///
/// A call that fails for want of the database marks it unreachable, with the reason; from then a
/// probe connects on a connection of its own, after 250 ms and then at most every
/// ``longestProbeInterval``, until one answers. When the probe failed at least once (a real
/// outage, not one slow statement), ``onReturnAfterOutage`` runs then, and the database
/// replaces its pool, whose connections died with the outage.
final class PostgresReachability: Sendable {
    /// The longest wait between two probes.
    static let longestProbeInterval: Duration = .seconds(1)

    private struct State {
        var reason: String?
        var prober: Task<Void, Never>?
        var onReturnAfterOutage: (@Sendable () -> Void)?
        var isStopped = false
    }

    private let state = Mutex(State())
    private let probe: PostgresConnection.Configuration
    private let logger: Logger

    /// Reachability probed, when needed, with connections of `probe`.
    init(probe: PostgresConnection.Configuration, logger: Logger) {
        self.probe = probe
        self.logger = logger
    }

    /// Why the database is unreachable, or nil while it answers.
    var unreachableReason: String? { state.withLock { $0.reason } }

    /// Runs when the database answers the probe after an outage.
    var onReturnAfterOutage: (@Sendable () -> Void)? {
        get { state.withLock { $0.onReturnAfterOutage } }
        set { state.withLock { $0.onReturnAfterOutage = newValue } }
    }

    /// A call got its answer (an error of the query itself counts: the database answered).
    func answered() {
        guard state.withLock({ $0.reason != nil && $0.prober == nil }) else { return }
        markReachable()
    }

    /// A call failed for want of the database: marks it unreachable and starts probing.
    func failed(_ reason: String) {
        let startsProbing = state.withLock { state -> Bool in
            guard !state.isStopped else { return false }
            let wasReachable = state.reason == nil
            state.reason = reason
            guard state.prober == nil else { return false }
            if wasReachable { StorageAvailabilityMetrics.outages.increment() }
            return true
        }
        guard startsProbing else { return }
        StorageAvailabilityMetrics.reachable.record(0)
        logger.warning("database unreachable: \(reason)")
        // Detached: the probe outlives the request that found the outage, and not its deadline.
        let prober = Task.detached { await self.probeUntilAnswered() }
        let stopped = state.withLock { state in
            state.prober = state.prober ?? prober
            return state.isStopped
        }
        if stopped { prober.cancel() }
    }

    /// Stops probing (the database is closing).
    func stop() {
        let prober = state.withLock { state in
            state.isStopped = true
            return state.prober
        }
        prober?.cancel()
    }

    private func probeUntilAnswered() async {
        var interval: Duration = .milliseconds(250)
        var failures = 0
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { return }
            do {
                try await StorageDeadline.run("a probe", within: StorageDeadline.call) { [probe, logger] in
                    let connection = try await PostgresConnection.connect(configuration: probe, id: 0, logger: logger)
                    let answered = await Result(catching: { try await connection.query("SELECT 1", logger: logger) })
                    try? await connection.close()
                    _ = try answered.get()
                }
                if failures > 0 { onReturnAfterOutage?() }
                state.withLock { $0.prober = nil }
                markReachable()
                return
            } catch {
                failures += 1
                state.withLock { $0.reason = PostgresServerDatabase.unavailability(error)?.reason ?? "the database did not answer" }
                interval = min(interval * 2, Self.longestProbeInterval)
            }
        }
    }

    private func markReachable() {
        let wasUnreachable = state.withLock { state in
            defer { state.reason = nil }
            return state.reason != nil
        }
        guard wasUnreachable else { return }
        StorageAvailabilityMetrics.reachable.record(1)
        logger.info("database reachable")
    }
}
