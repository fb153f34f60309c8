import Foundation
import MeTubeStore

/// Runs every sync of one store, one at a time.
///
/// A request that arrives while a run is in progress is coalesced into exactly one follow-up run,
/// which every such request awaits ("already syncing" is never an error). Progress and results are
/// published on `events`. Connectivity follows the outcomes: a run that cannot reach the source
/// marks it offline and starts health probes with backoff; when a probe succeeds, a sync starts
/// after `reconnectDebounce`.
public actor SyncEngine {
    /// Progress, results and connectivity changes, in order.
    public nonisolated let events: AsyncStream<SyncEvent>
    /// Whether the source is reachable, as far as the engine knows.
    public private(set) var connectivity: Connectivity = .unknown

    private let store: Store
    private let configuration: SyncConfiguration
    private let status: StatusSync?
    private let continuation: AsyncStream<SyncEvent>.Continuation
    private var current: Task<SyncReport, Never>?
    private var followUp: Task<SyncReport, Never>?
    private var prober: Task<Void, Never>?

    /// Creates an engine for `store`; with `status`, every run also syncs marks with the status
    /// service after the videos.
    public init(store: Store, configuration: SyncConfiguration, status: StatusSync? = nil) {
        self.store = store
        self.configuration = configuration
        self.status = status
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    deinit {
        prober?.cancel()
        continuation.finish()
    }

    /// Syncs now, or joins the follow-up run when one is in progress; returns that run's report.
    @discardableResult
    public func sync() async -> SyncReport {
        if let followUp { return await followUp.value }
        if let running = current {
            let next = Task { [weak self] () -> SyncReport in
                _ = await running.value
                guard let self else { return SyncReport(source: .hub) }
                return await self.startRun()
            }
            followUp = next
            return await next.value
        }
        return await startRun()
    }

    /// Cancels the run in progress (it stops between pages and reports `cancelled`) and any
    /// follow-up run.
    public func cancel() {
        followUp?.cancel()
        current?.cancel()
    }

    /// Stops health probing and ends `events`.
    public func shutdown() {
        cancel()
        prober?.cancel()
        continuation.finish()
    }

    private func startRun() async -> SyncReport {
        followUp = nil
        let task = Task { await self.perform() }
        current = task
        let report = await task.value
        current = nil
        return report
    }

    private func perform() async -> SyncReport {
        let source = configuration.source
        continuation.yield(.started(source))
        let start = ContinuousClock.now
        let progress: @Sendable (String) -> Void = { [continuation] message in continuation.yield(.progress(source, message)) }
        var report: SyncReport
        do {
            switch source {
            case .hub:
                guard let url = configuration.hubURL, !url.isEmpty else { throw SyncError.notConfigured("no hub URL; set [hub] url in the config file") }
                let client = HubClient(baseURL: url, timeout: configuration.requestTimeout, retryPolicy: configuration.retryPolicy)
                report = try await HubSyncRun(
                    store: store, client: client, pageSize: configuration.pageSize,
                    followHubChannels: configuration.followHubChannels, progress: progress
                ).run()
            case .direct:
                let client = DirectFeedClient(urlTemplate: configuration.feedURLTemplate, timeout: configuration.requestTimeout)
                report = try await DirectSyncRun(store: store, client: client, concurrency: configuration.directConcurrency, progress: progress).run()
            }
            let reachedSource = report.requests > report.failedChannels.count || report.requests == 0
            if reachedSource { setConnectivity(.online) }
        } catch let error as SyncError {
            report = SyncReport(source: source)
            if error == .cancelled {
                report.cancelled = true
            } else {
                report.error = error.description
                report.errorIsRetryable = error.isRetryable
                if error.isOffline { goOffline() }
            }
        } catch {
            report = SyncReport(source: source)
            report.error = String(describing: error)
        }
        if let status {
            do {
                report.status = try await status.run()
            } catch {
                report.statusError = String(describing: error)
            }
        }
        report.seconds = (ContinuousClock.now - start).seconds
        continuation.yield(.finished(report))
        return report
    }

    private func setConnectivity(_ state: Connectivity) {
        switch (connectivity, state) {
        case (.offline, .offline), (.online, .online): return
        default: break
        }
        connectivity = state
        continuation.yield(.connectivity(state))
    }

    private func goOffline() {
        setConnectivity(.offline(since: Date()))
        guard prober == nil, configuration.source == .hub, let url = configuration.hubURL else { return }
        let client = HubClient(baseURL: url, timeout: configuration.requestTimeout, retryPolicy: .none)
        let delays = configuration.probeDelays.isEmpty ? [Duration.seconds(30)] : configuration.probeDelays
        let debounce = configuration.reconnectDebounce
        prober = Task { [weak self] in
            var attempt = 0
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: delays[min(attempt, delays.count - 1)])
                } catch {
                    return
                }
                attempt += 1
                do {
                    try await client.health()
                } catch {
                    continue
                }
                await self?.reconnected(after: debounce)
                return
            }
        }
    }

    private func reconnected(after debounce: Duration) async {
        prober = nil
        setConnectivity(.online)
        try? await Task.sleep(for: debounce)
        guard !Task.isCancelled else { return }
        Task { await self.sync() }
    }
}

extension Duration {
    /// This duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
