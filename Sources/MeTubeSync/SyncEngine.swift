import Foundation
import MeTubeStore

/// Runs every sync of one store, one at a time.
///
/// A request that arrives while a run is in progress is coalesced into exactly one follow-up run,
/// which every such request awaits ("already syncing" is never an error); the follow-up covers
/// everything its requests asked for. Progress and results are published on `events`.
/// Connectivity follows the outcomes, for the video source and the status service apart: a run
/// that cannot reach one marks it offline and starts health probes with backoff; when a probe
/// succeeds, a sync starts after `reconnectDebounce`. Once ``start()`` is called, runs also
/// follow the configured intervals.
public actor SyncEngine {
    /// Progress, results and connectivity changes, in order.
    public nonisolated let events: AsyncStream<SyncEvent>
    /// Whether the video source is reachable, as far as the engine knows.
    public private(set) var connectivity: Connectivity = .unknown
    /// Whether the status service is reachable, as far as the engine knows.
    public private(set) var statusConnectivity: Connectivity = .unknown

    private let store: Store
    private let configuration: SyncConfiguration
    private let status: StatusSync?
    private let continuation: AsyncStream<SyncEvent>.Continuation
    private var current: Task<SyncReport, Never>?
    private var followUp: Task<SyncReport, Never>?
    private var followUpScope = SyncScope.status
    private var prober: Task<Void, Never>?
    private var statusProber: Task<Void, Never>?
    private var schedules: [Task<Void, Never>] = []
    private var fullResyncRequested = false

    /// Creates an engine for `store`; with `status`, runs also sync marks with the status service
    /// (after the videos, when a video source is configured).
    public init(store: Store, configuration: SyncConfiguration, status: StatusSync? = nil) {
        self.store = store
        self.configuration = configuration
        self.status = status
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    deinit {
        prober?.cancel()
        statusProber?.cancel()
        for schedule in schedules { schedule.cancel() }
        continuation.finish()
    }

    /// Whether the engine has anything to sync: a video source or a status service.
    public nonisolated var hasWork: Bool { configuration.hasVideoSource || status != nil }

    /// Starts the periodic runs: everything every `hubInterval` (with a video source), marks only
    /// every `statusInterval` (with a status service). Calling it again changes nothing.
    public func start() {
        guard schedules.isEmpty else { return }
        if configuration.hasVideoSource, let interval = configuration.hubInterval { schedules.append(schedule(.all, every: interval)) }
        if status != nil, let interval = configuration.statusInterval { schedules.append(schedule(.status, every: interval)) }
    }

    /// Syncs `scope` now, or joins the follow-up run when one is in progress (widening it to
    /// `scope`); returns that run's report. With `full`, the run first forgets where the syncs
    /// stopped (``MeTubeStore/Store/forgetSyncPositions()``) and fetches and merges everything.
    @discardableResult
    public func sync(_ scope: SyncScope = .all, full: Bool = false) async -> SyncReport {
        if full { fullResyncRequested = true }
        if let followUp {
            followUpScope = followUpScope.union(scope)
            return await followUp.value
        }
        if let running = current {
            followUpScope = scope
            let next = Task { [weak self] () -> SyncReport in
                _ = await running.value
                guard let self else { return SyncReport(source: .hub) }
                return await self.startFollowUp()
            }
            followUp = next
            return await next.value
        }
        return await startRun(scope)
    }

    /// Cancels the run in progress (it stops between pages and reports `cancelled`) and any
    /// follow-up run.
    public func cancel() {
        followUp?.cancel()
        current?.cancel()
    }

    /// Stops the periodic runs and health probing, and ends `events`.
    public func shutdown() {
        cancel()
        for schedule in schedules { schedule.cancel() }
        schedules = []
        prober?.cancel()
        statusProber?.cancel()
        continuation.finish()
    }

    private func schedule(_ scope: SyncScope, every interval: Duration) -> Task<Void, Never> {
        Task { [weak self] in
            while true {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return
                }
                guard let self else { return }
                await self.sync(scope)
            }
        }
    }

    private func startFollowUp() async -> SyncReport {
        let scope = followUpScope
        followUpScope = .status
        return await startRun(scope)
    }

    private func startRun(_ scope: SyncScope) async -> SyncReport {
        followUp = nil
        let task = Task { await self.perform(scope) }
        current = task
        let report = await task.value
        current = nil
        return report
    }

    private func perform(_ scope: SyncScope) async -> SyncReport {
        let start = ContinuousClock.now
        var report = SyncReport(source: configuration.source)
        if fullResyncRequested {
            fullResyncRequested = false
            do throws(SyncError) {
                try store.forgetSyncPositions()
            } catch {
                report.error = error.description
                continuation.yield(.finished(report))
                return report
            }
        }
        if scope == .all, configuration.hasVideoSource || status == nil {
            report = await syncVideos()
        } else {
            report.includesVideos = false
        }
        if let status, !report.cancelled {
            continuation.yield(.statusStarted)
            do {
                report.status = try await status.run()
                statusProber?.cancel()
                statusProber = nil
                setStatusConnectivity(.online)
            } catch {
                report.statusError = String(describing: error)
                if let failure = error as? StatusRequestFailure, failure.isUnreachable { goStatusOffline() }
            }
        }
        report.seconds = (ContinuousClock.now - start).seconds
        continuation.yield(.finished(report))
        return report
    }

    private func syncVideos() async -> SyncReport {
        let source = configuration.source
        continuation.yield(.started(source))
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

    /// Marks the video source offline and probes its health with backoff until it answers, then
    /// syncs after `reconnectDebounce`.
    private func goOffline() {
        setConnectivity(.offline(since: Date()))
        guard prober == nil, configuration.source == .hub, let url = configuration.hubURL else { return }
        let client = HubClient(baseURL: url, timeout: configuration.requestTimeout, retryPolicy: .none)
        prober = probe({ try await client.health() }, then: .all)
    }

    /// Records the status service's reachability in the store (so `metube status` can show it)
    /// and on `events`.
    private func setStatusConnectivity(_ state: Connectivity) {
        switch (statusConnectivity, state) {
        case (.offline, .offline), (.online, .online): return
        default: break
        }
        statusConnectivity = state
        let since: Date? = if case .offline(let since) = state { since } else { nil }
        if store.syncSnapshot().statusOfflineSince != since { _ = try? store.transaction { $0.sync.statusOfflineSince = since } }
        continuation.yield(.statusConnectivity(state))
    }

    /// Marks the status service offline (since the time already saved, when it was) and probes
    /// it with backoff until it answers, then syncs marks after `reconnectDebounce`.
    private func goStatusOffline() {
        setStatusConnectivity(.offline(since: store.syncSnapshot().statusOfflineSince ?? Date()))
        guard statusProber == nil, let status else { return }
        statusProber = probe({ try await status.probe() }, then: .status)
    }

    /// A task that runs `check` after each of the probe delays (the last one repeating) until
    /// a check passes, then reports the service of `scope` reachable.
    private func probe(_ check: @escaping @Sendable () async throws -> Void, then scope: SyncScope) -> Task<Void, Never> {
        let delays = configuration.probeDelays.isEmpty ? [Duration.seconds(30)] : configuration.probeDelays
        return Task { [weak self] in
            var attempt = 0
            while true {
                do {
                    try await Task.sleep(for: delays[min(attempt, delays.count - 1)])
                } catch {
                    return
                }
                attempt += 1
                do {
                    try await check()
                } catch {
                    continue
                }
                await self?.reconnected(scope)
                return
            }
        }
    }

    /// The service of `scope` (the video source for `.all`, the status service for `.status`)
    /// answers again: online, and a sync of `scope` after `reconnectDebounce`.
    private func reconnected(_ scope: SyncScope) async {
        switch scope {
        case .all:
            prober = nil
            setConnectivity(.online)
        case .status:
            statusProber = nil
            setStatusConnectivity(.online)
        }
        try? await Task.sleep(for: configuration.reconnectDebounce)
        guard !Task.isCancelled else { return }
        Task { await self.sync(scope) }
    }
}

extension Duration {
    /// This duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
