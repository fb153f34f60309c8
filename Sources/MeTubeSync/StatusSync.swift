import Logging
import MeTubeAPI
import MeTubeCore

/// One device's status sync: ensures the zone, pushes pending marks in batches, then pulls
/// changes page by page, applying the conflict rules of ``StatusReconciler``.
///
/// Not reentrant: the SyncEngine actor runs one sync at a time.
public struct StatusSync: Sendable {
    /// What one run did.
    public struct Report: Sendable, Hashable {
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
    }

    private let client: StatusClient
    private let store: any StatusMarkStore
    private let reconciler: StatusReconciler
    private let batchSize: Int
    private let zoneID = StatusZoneID(zoneName: WatchedStatusRecord.zoneName)
    private let logger: Logger

    /// Creates a sync of `store` through `client` settling conflicts by `policy`; pushes go in
    /// batches of at most `batchSize` (the server's limit, 200 by default).
    public init(client: StatusClient, store: any StatusMarkStore, policy: ConflictPolicy = .ask, batchSize: Int = 200, logger: Logger = Logger(label: "metube.status")) {
        self.client = client
        self.store = store
        self.reconciler = StatusReconciler(policy: policy)
        self.batchSize = max(1, batchSize)
        self.logger = logger
    }

    /// Pushes, then pulls. Throws the first failure that stops the run; whatever was applied
    /// before it stays applied, and a retry resumes from there.
    public func run() async throws -> Report {
        var report = Report()
        try await push(into: &report)
        if report.rebased > 0 { try await push(into: &report) }
        try await pull(into: &report)
        return report
    }

    /// Creates the zone (idempotently on the server).
    public func ensureZone() async throws {
        let response = try await client.modifyZones(StatusZonesModifyRequest(operations: [.init(.create, zone: zoneID)]))
        if case .failure(let error) = response.zones.first {
            throw StatusRequestFailure.server(StatusErrorBody(error.serverErrorCode, error.reason, retryAfter: error.retryAfter), httpStatus: 200)
        }
    }

    /// Pushes every pending mark in batches.
    func push(into report: inout Report) async throws {
        let pending = try store.pendingMarks()
        var start = 0
        while start < pending.count {
            let batch = Array(pending[start..<min(start + batchSize, pending.count)])
            try await push(batch, into: &report)
            start += batch.count
        }
    }

    /// Pushes one batch, halving it while the server says it is too large.
    private func push(_ batch: [Mark], into report: inout Report) async throws {
        let request = StatusRecordsModifyRequest(operations: batch.map(StatusReconciler.operation), zoneID: zoneID, atomic: false)
        let response: StatusRecordsResponse
        do {
            response = try await modifyEnsuringZone(request)
        } catch let failure as StatusRequestFailure {
            guard case .server(let body, _) = failure, body.isLimitExceeded || body.serverErrorCode == .quotaExceeded, batch.count > 1 else { throw failure }
            try await push(Array(batch[..<(batch.count / 2)]), into: &report)
            try await push(Array(batch[(batch.count / 2)...]), into: &report)
            return
        }
        let current = try store.marks(for: batch.map(\.videoID))
        var updated: [Mark] = []
        var observed: HybridTimestamp?
        for (pushed, result) in zip(batch, response.records) {
            guard let now = current[pushed.videoID], let mark = reconciler.afterPush(pushed: pushed, current: now, result: result) else {
                if case .failure(let error) = result {
                    report.deferred += 1
                    logger.warning("status push of \(pushed.videoID) deferred: \(error.serverErrorCode.rawValue) \(error.reason)")
                }
                continue
            }
            switch mark.syncState {
            case .conflict: report.conflicts += 1
            case .pending, .offline: report.rebased += 1
            case .synced: report.pushed += 1
            }
            if let hlc = (mark.theirs ?? mark.base)?.hlc { observed = max(observed ?? hlc, hlc) }
            updated.append(mark)
        }
        if !updated.isEmpty { try store.applyStatus(marks: updated, syncToken: nil, observed: observed) }
    }

    /// Sends `request`, creating the zone and retrying once when the server does not have it.
    private func modifyEnsuringZone(_ request: StatusRecordsModifyRequest) async throws -> StatusRecordsResponse {
        do {
            return try await client.modifyRecords(request)
        } catch .server(let body, _) where body.serverErrorCode == .zoneNotFound {
            try await ensureZone()
            return try await client.modifyRecords(request)
        }
    }

    /// Pulls changes since the saved token page by page; each page and its token are saved
    /// together, so an interrupted pull resumes after the last saved page.
    func pull(into report: inout Report) async throws {
        var token = try store.statusSyncToken()
        var restarted = false
        while true {
            let response = try await client.zoneChanges(StatusZoneChangesRequest(zones: [.init(zoneID: zoneID, syncToken: token, resultsLimit: batchSize)]))
            switch response.zones.first {
            case .success(let changes)?:
                try apply(changes, into: &report)
                token = changes.syncToken
                if !changes.moreComing { return }
            case .failure(let error)? where error.serverErrorCode == .zoneNotFound:
                try await ensureZone()
                token = nil
            case .failure(let error)? where error.serverErrorCode == .badRequest && token != nil && !restarted:
                logger.notice("status sync token refused (\(error.reason)); pulling from the beginning")
                token = nil
                restarted = true
            case .failure(let error)?:
                throw StatusRequestFailure.server(StatusErrorBody(error.serverErrorCode, error.reason, retryAfter: error.retryAfter), httpStatus: 200)
            case nil:
                throw StatusRequestFailure.unreadable(httpStatus: 200, "changes/zone answered no zone")
            }
        }
    }

    /// Applies one page of changes and saves its token with it.
    private func apply(_ changes: StatusZoneChanges, into report: inout Report) throws {
        let versions = changes.records.compactMap { record -> (String, ServerVersion)? in
            guard let name = record.recordName, record.deleted != true, let version = StatusReconciler.serverVersion(of: record) else { return nil }
            return (name, version)
        }
        let local = try store.marks(for: versions.map(\.0))
        var updated: [Mark] = []
        var observed: HybridTimestamp?
        for (videoID, version) in versions {
            if let hlc = version.hlc { observed = max(observed ?? hlc, hlc) }
            guard let mark = reconciler.afterPull(local: local[videoID], server: version, videoID: videoID) else { continue }
            if mark.syncState == .conflict { report.conflicts += 1 }
            updated.append(mark)
        }
        report.pulled += versions.count
        try store.applyStatus(marks: updated, syncToken: changes.syncToken, observed: observed)
    }
}
