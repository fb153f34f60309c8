import Foundation
import MeTubeStore

/// Runs every sync of one store, one at a time.
///
/// Runs are started only by the engine's request loop, one after the other, so two never
/// overlap. A request that arrives while a run is in progress joins the one follow-up run,
/// whose scope is the union of everything asked for since that run started; every request gets
/// the report of the first run that started after it ("already syncing" is never an error), or
/// of the spread periodic run it hurried.
/// Progress, results and health changes are published on `events`. Each service (the video
/// source, the mark-sync service) has one health: a run that cannot reach it makes it offline and
/// starts health probes with backoff; when a probe is answered, a sync follows after
/// `reconnectDebounce`. Once ``start()`` is called, runs also follow the configured intervals;
/// in direct mode, after the session's first video run, those periodic runs spread their
/// requests over ``scheduledSpreadShare`` of the interval (``SyncPace``), and a request for a
/// sync while one of them is in progress hurries it instead of queueing a second one. Every
/// wait goes through the injected clock.
public actor SyncEngine {
    /// Progress, results and health changes, in order.
    public nonisolated let events: AsyncStream<SyncEvent>

    let store: Store
    let source: (any VideoSource)?
    let markSync: MarkSync?
    let configuration: SyncConfiguration
    let sourceKind: SyncSource
    let continuation: AsyncStream<SyncEvent>.Continuation
    /// Waits on the injected clock; throws when cancelled.
    let sleep: @Sendable (Duration) async throws -> Void
    /// Starts a measurement on the injected clock; the returned closure reads the time elapsed.
    let stopwatch: @Sendable () -> @Sendable () -> Duration
    var health: [RemoteService: ServiceHealth] = [:]
    var probers: [RemoteService: Task<Void, Never>] = [:]
    var isShutDown = false
    private var runs = 0
    private var next: PlannedRun?
    private var loop: Task<Void, Never>?
    private var current: Task<SyncReport, Never>?
    /// The run in progress, whose waiters get its report.
    private var running: PlannedRun?
    /// How the run in progress spreads its requests, when it does.
    private var runningPace: SyncPace?
    /// Whether a video run has started in this session (the first one is never spread).
    private var hasRunVideos = false
    private var schedules: [Task<Void, Never>] = []

    /// Creates an engine syncing `store` with `source` (videos) and `markSync` (marks; after the
    /// videos in a full run); `configuration` gives the intervals, probe delays and reconnect
    /// debounce, and `clock` measures every wait.
    public init<C: Clock<Duration>>(store: Store, source: (any VideoSource)?, markSync: MarkSync? = nil, configuration: SyncConfiguration, clock: C) {
        self.store = store
        self.source = source
        self.markSync = markSync
        self.configuration = configuration
        self.sourceKind = source?.kind ?? configuration.source
        self.sleep = { try await clock.sleep(for: $0) }
        self.stopwatch = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// Creates an engine syncing `store` with the video source `configuration` names (none in
    /// hub mode without a hub URL) and `markSync`, on the continuous clock.
    public init(store: Store, configuration: SyncConfiguration, markSync: MarkSync? = nil) {
        self.init(store: store, source: configuration.videoSource(for: store), markSync: markSync, configuration: configuration, clock: ContinuousClock())
    }

    deinit {
        for prober in probers.values { prober.cancel() }
        for schedule in schedules { schedule.cancel() }
        continuation.finish()
    }

    /// Whether the engine has anything to sync: a video source or a mark-sync service.
    public nonisolated var hasWork: Bool { source != nil || markSync != nil }

    /// The share of the interval over which a periodic run spreads its requests.
    public static let scheduledSpreadShare = 0.8

    /// Starts the periodic runs: everything every `hubInterval` (with a video source), marks only
    /// every `markSyncInterval` (with a mark-sync service). Calling it again changes nothing.
    public func start() {
        guard schedules.isEmpty, !isShutDown else { return }
        if source != nil, let interval = configuration.hubInterval { schedules.append(schedule(.all, every: interval)) }
        if markSync != nil, let interval = configuration.markSyncInterval { schedules.append(schedule(.markSync, every: interval)) }
    }

    /// Syncs `scope` in the next run to start (now, when none is in progress) and returns that
    /// run's report. With `full`, that run first forgets where the syncs stopped
    /// (``MeTubeStore/Store/forgetSyncPositions()``) and fetches and merges everything.
    @discardableResult
    public func sync(_ scope: SyncScope = .all, full: Bool = false) async -> SyncReport {
        await request(scope, full: full).report.value
    }

    /// Cancels the run in progress (it stops between pages and reports `cancelled`) and the
    /// follow-up run, whose requests get a cancelled report.
    public func cancel() {
        current?.cancel()
        running?.cancelled = true
        next?.cancelled = true
    }

    /// Cancels every run, stops the periodic runs and health probing, and ends `events`; later
    /// requests get a cancelled report at once.
    public func shutdown() {
        isShutDown = true
        cancel()
        for schedule in schedules { schedule.cancel() }
        schedules = []
        for prober in probers.values { prober.cancel() }
        probers = [:]
        continuation.finish()
    }

    /// A request accepted by the engine: the number of runs started before it, and its report.
    struct RunTicket: Sendable {
        /// Runs started before the request's run: it gets the next one, or the spread run in
        /// progress that it hurried.
        let after: Int
        /// Ends with the report of that run.
        let report: Task<SyncReport, Never>
    }

    /// Plans `scope` (a full resync with `full`) into the next run and returns the ticket for
    /// that run's report.
    func request(_ scope: SyncScope, full: Bool = false, paced: Bool = false) -> RunTicket {
        let (reports, waiter) = AsyncStream.makeStream(of: SyncReport.self, bufferingPolicy: .bufferingNewest(1))
        let joined = enqueue(scope, full: full, paced: paced, waiter: waiter)
        let after = joined ? runs - 1 : runs
        let fallback = SyncReport(source: sourceKind)
        return RunTicket(after: after, report: Task {
            for await report in reports { return report }
            return fallback
        })
    }

    /// Plans `scope` (a full resync with `full`; `paced` for a periodic run, which may spread
    /// its requests) into the next run (`waiter` gets its report) and starts the request loop
    /// when it is idle. A sync of everything asked for at once while a spread run of everything
    /// is in progress hurries that run and gets its report. After shutdown the waiter gets a
    /// cancelled report of no run at once. Returns whether the request joined the run in
    /// progress.
    @discardableResult
    func enqueue(_ scope: SyncScope, full: Bool = false, paced: Bool = false, waiter: AsyncStream<SyncReport>.Continuation?) -> Bool {
        guard !isShutDown else {
            var report = SyncReport(source: sourceKind)
            report.cancelled = true
            waiter?.yield(report)
            waiter?.finish()
            return false
        }
        if !paced, !full, scope == .all, let pace = runningPace, var run = running, !run.cancelled {
            pace.hurry()
            if let waiter { run.waiters.append(waiter) }
            running = run
            return true
        }
        var planned = next ?? PlannedRun(scope: scope, paced: paced)
        planned.scope = planned.scope.union(scope)
        planned.full = planned.full || full
        planned.paced = planned.paced && paced
        if let waiter { planned.waiters.append(waiter) }
        next = planned
        if loop == nil { loop = Task { await self.drain() } }
        return false
    }

    /// The request loop: runs the planned run, hands its report to its requests, and goes on
    /// while requests keep coming; the only place a run starts.
    private func drain() async {
        while let planned = next {
            next = nil
            runs += 1
            let number = runs
            let spreads = planned.paced && hasRunVideos && source?.kind == .direct
            let pace = spreads ? configuration.hubInterval.map { SyncPace(spread: $0 * Self.scheduledSpreadShare) } : nil
            if planned.scope == .all { hasRunVideos = true }
            let run = Task { await self.perform(planned.scope, full: planned.full, number: number, pace: pace) }
            if planned.cancelled { run.cancel() }
            current = run
            running = planned
            runningPace = pace
            let report = await run.value
            current = nil
            runningPace = nil
            let waiters = running?.waiters ?? planned.waiters
            running = nil
            for waiter in waiters {
                waiter.yield(report)
                waiter.finish()
            }
        }
        loop = nil
    }

    private func schedule(_ scope: SyncScope, every interval: Duration) -> Task<Void, Never> {
        Task { [weak self, sleep] in
            while true {
                do {
                    try await sleep(interval)
                } catch {
                    return
                }
                guard let self else { return }
                await self.request(scope, paced: true).report.value
            }
        }
    }

    /// The run the next requests join: its scope, whether it is a full resync, and who waits
    /// for its report.
    private struct PlannedRun {
        var scope: SyncScope
        var full = false
        /// Whether every request in it is periodic (only such a run may be spread).
        var paced = false
        var waiters: [AsyncStream<SyncReport>.Continuation] = []
        var cancelled = false
    }
}
