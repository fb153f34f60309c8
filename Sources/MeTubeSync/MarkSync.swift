import Logging
import MeTubeAPI
import MeTubeCore
import MeTubeStore
import MeTubeTransfer

/// One device's mark sync: ensures the zone, pushes pending marks in batches, then pulls
/// changes page by page, applying the conflict rules of ``MarkReconciler``.
///
/// Not reentrant: the SyncEngine actor runs one sync at a time.
public struct MarkSync: Sendable {
    /// What one run did.
    public struct Report: Sendable, Hashable, Codable {
        /// Marks the server acknowledged or settled.
        public var pushed = 0
        /// Records pulled and applied.
        public var pulled = 0
        /// Marks now in conflict.
        public var conflicts = 0
        /// Per-record failures left pending for a later run.
        public var deferred = 0
        /// Marks that won a conflict and were pushed again on the server's version.
        public var rebased = 0
        /// Pulled records dropped at the boundary: an invalid record name, or no readable
        /// watched-status version (see ``PeerInput``).
        public var dropped = 0
        /// Follows, unfollows and tag changes of this device the server took.
        public var subscriptionsPushed = 0
        /// Subscription records pulled and applied.
        public var subscriptionsPulled = 0
        /// Subscriptions changed both here and on another device, merged (see
        /// ``Subscription/merged(onto:)``).
        public var subscriptionsMerged = 0

        /// An empty report.
        public init() {}

        /// Adds the counts of `other`.
        mutating func add(_ other: Report) {
            pushed += other.pushed
            pulled += other.pulled
            conflicts += other.conflicts
            deferred += other.deferred
            rebased += other.rebased
            dropped += other.dropped
            subscriptionsPushed += other.subscriptionsPushed
            subscriptionsPulled += other.subscriptionsPulled
            subscriptionsMerged += other.subscriptionsMerged
        }
    }

    private var client: MarkSyncClient
    let store: any MarkSyncStore
    let reconciler: MarkReconciler
    let batchSize: Int
    let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
    private let logger: Logger

    /// Creates a sync of `store` through `client` settling conflicts by `policy`; pushes go in
    /// batches of at most `batchSize` (the server's limit, 200 by default).
    public init(client: MarkSyncClient, store: any MarkSyncStore, policy: ConflictPolicy = .ask, batchSize: Int = 200, logger: Logger = Logger(label: "metube.status")) {
        self.client = client
        self.store = store
        self.reconciler = MarkReconciler(policy: policy)
        self.batchSize = max(1, batchSize)
        self.logger = logger
    }

    /// Creates a sync of `store` for the account saved by `metube login`.
    public init(account: MarkSyncAccount, store: any MarkSyncStore, policy: ConflictPolicy = .ask, logger: Logger = Logger(label: "metube.status")) {
        self.init(client: MarkSyncClient(endpoint: account.endpoint, userToken: account.userToken), store: store, policy: policy, logger: logger)
    }

    /// The longest one ``run()`` may take; no request outlives it.
    public static let runLimit = Duration.seconds(900)

    /// Pushes, then pulls, within ``runLimit``; then, for a store that keeps subscriptions, syncs
    /// the followed channels and their tags (``SubscriptionSync``). Throws the first failure that
    /// stops the run; whatever was applied before it stays applied, and a retry resumes from there.
    public func run() async throws -> Report {
        var sync = self
        sync.client = client.bounded(by: .now + Self.runLimit)
        var report = try await sync.pushPending()
        report.add(try await sync.pullChanges())
        if let subscriptions = store as? any SubscriptionStore {
            report.add(try await SubscriptionSync(client: sync.client, store: subscriptions, batchSize: batchSize, logger: logger).run())
        }
        return report
    }

    /// Pushes every pending mark (and the conflicts this settles in their favour), without
    /// pulling.
    public func pushPending() async throws -> Report {
        var report = Report()
        try await push(into: &report)
        if report.rebased > 0 { try await push(into: &report) }
        return report
    }

    /// Pulls and applies every change since the saved token, without pushing.
    public func pullChanges() async throws -> Report {
        var report = Report()
        try await pull(into: &report)
        return report
    }

    /// Asks the server for its zones once; throws only when it cannot be reached or the probe
    /// was cancelled (any answer, even an error, shows it is there).
    public func probe() async throws(MarkSyncRequestFailure) {
        do {
            _ = try await client.listZones(resultsLimit: 1)
        } catch where error.isUnreachable || error == .cancelled {
            throw error
        } catch {
            return
        }
    }

    /// Creates the zone (idempotently on the server).
    public func ensureZone() async throws {
        try await client.ensureZone(zoneID)
    }

    /// Pushes every pending mark in batches, a few requests in flight at once (batches hold
    /// different videos, so their order does not matter).
    private func push(into report: inout Report) async throws {
        let pending = try store.pendingMarks()
        let positions = try store.playbackPositions(of: pending.map(\.videoID))
        let queue = try store.queueEntries(of: pending.map(\.videoID))
        let batches = stride(from: 0, to: pending.count, by: batchSize).map { Array(pending[$0..<min($0 + batchSize, pending.count)]) }
        report.add(try await Report.pipelined(batches, inFlight: Self.concurrentPushes) { batch in try await push(batch, positions: positions, queue: queue) })
        report.add(try await pushRecordFields(positions: try store.pendingPositions(), queue: try store.pendingQueueEntries()))
    }

    /// How many push requests may be in flight at once.
    static let concurrentPushes = 4

    /// Pushes one batch, halving it while the server says it is too large, and reconciles the
    /// results into the store.
    private func push(_ batch: [Mark], positions: [String: PlaybackPosition], queue: [String: QueueEntry]) async throws -> Report {
        let request = MarkSyncRecordsModifyRequest(operations: batch.map { MarkReconciler.operation(for: $0, position: positions[$0.videoID], queue: queue[$0.videoID]) },
                                                 zoneID: zoneID, atomic: false)
        let response: MarkSyncRecordsResponse
        do {
            response = try await modifyEnsuringZone(request)
        } catch let failure as MarkSyncRequestFailure {
            guard case .server(let body, _) = failure, body.isLimitExceeded || body.serverErrorCode == .quotaExceeded, batch.count > 1 else { throw failure }
            var halves = try await push(Array(batch[..<(batch.count / 2)]), positions: positions, queue: queue)
            halves.add(try await push(Array(batch[(batch.count / 2)...]), positions: positions, queue: queue))
            return halves
        }
        let observed = response.records.compactMap { result -> HybridTimestamp? in
            guard case .failure(let error) = result else { return nil }
            return error.serverRecord.flatMap(MarkReconciler.serverVersion)?.hlc
        }.max()
        var outcome = Report()
        try store.reconcileMarks(videoIDs: batch.map(\.videoID), syncToken: nil, observed: observed, pullFinished: false) { current in
            outcome = Report()
            var updated: [Mark] = []
            for (pushed, result) in zip(batch, response.records) {
                guard let now = current[pushed.videoID], let mark = reconciler.afterPush(pushed: pushed, current: now, result: result) else {
                    if case .failure = result { outcome.deferred += 1 }
                    continue
                }
                switch mark.syncState {
                case .conflict: outcome.conflicts += 1
                case .pending, .offline: outcome.rebased += 1
                case .synced: outcome.pushed += 1
                }
                updated.append(mark)
            }
            return MarkSyncUpdate(marks: updated, positions: Self.positionsAfterPush(batch.map(\.videoID), positions, response.records),
                                    queue: Self.queueAfterPush(batch.map(\.videoID), queue, response.records))
        }
        for case .failure(let error) in response.records where error.serverErrorCode != .conflict && error.serverErrorCode != .exists {
            logger.warning("status push of \(error.recordName ?? "?") deferred: \(error.serverErrorCode.rawValue) \(error.reason)")
        }
        return outcome
    }

    /// Sends `request`, creating the zone and retrying once when the server does not have it.
    func modifyEnsuringZone(_ request: MarkSyncRecordsModifyRequest) async throws -> MarkSyncRecordsResponse {
        try await client.modifyEnsuringZone(request)
    }

    /// Pulls changes since the saved token (``ZoneChangesPull``), each page saved with its token;
    /// a refused token is recorded for `metube doctor`.
    private func pull(into report: inout Report) async throws {
        let pull = ZoneChangesPull(client: client, zoneID: zoneID, batchSize: batchSize, label: "status", logger: logger)
        let restarted = try await pull.run(from: try store.markSyncToken()) { changes in try apply(changes, into: &report) }
        recordRejection(restarted ? "the status server refused the saved sync token" : nil)
    }

    /// Records for `metube doctor` whether the last pull found its sync token refused (only for
    /// the file store, which has a directory to keep the note in).
    private func recordRejection(_ reason: String?) {
        guard let files = store as? Store else { return }
        SyncRejections.record(in: files.directory) { $0.markSyncToken = reason }
    }

    /// Applies one page of changes (deletions included) and saves its token with it. Records
    /// with an invalid name or no readable version are dropped, counted and logged; the rest of
    /// the page is applied.
    private func apply(_ changes: MarkSyncZoneChanges, into report: inout Report) throws {
        let named = changes.records.filter { $0.recordName.map(PeerInput.isRecordName) ?? false }
        let versions = named.compactMap { record -> (String, ServerVersion)? in
            guard let name = record.recordName, record.deleted != true, let version = MarkReconciler.serverVersion(of: record) else { return nil }
            return (name, version)
        }
        let deleted = named.compactMap { $0.deleted == true ? $0.recordName : nil }
        let positions = named.compactMap { record in
            record.deleted == true ? nil : MarkReconciler.position(of: record).flatMap { $0.videoID == record.recordName ? $0 : nil }
        }
        let queue = named.compactMap { record in
            record.deleted == true ? nil : MarkReconciler.queueEntry(of: record).flatMap { $0.videoID == record.recordName ? $0 : nil }
        }
        let dropped = changes.records.count - versions.count - deleted.count
        if dropped > 0 {
            logger.warning("status pull: \(dropped) record(s) dropped (invalid record name, or no readable watched status)")
            report.dropped += dropped
        }
        var conflicts = 0
        try store.reconcileMarks(
            videoIDs: versions.map(\.0) + deleted, syncToken: changes.syncToken, observed: versions.compactMap(\.1.hlc).max(), pullFinished: !changes.moreComing
        ) { local in
            conflicts = 0
            var update = MarkSyncUpdate(marks: versions.compactMap { videoID, version in
                guard let mark = reconciler.afterPull(local: local[videoID], server: version, videoID: videoID) else { return nil }
                if mark.syncState == .conflict { conflicts += 1 }
                return mark
            }, positions: positions, queue: queue)
            for videoID in deleted {
                switch reconciler.afterDeletion(local: local[videoID]) {
                case .unchanged: break
                case .forget: update.removedVideoIDs.append(videoID)
                case .keep(let mark): update.marks.append(mark)
                }
            }
            return update
        }
        report.pulled += versions.count + deleted.count
        report.conflicts += conflicts
    }
}
