import Foundation
import Hummingbird
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import MeTubeSync
import ServerTestSupport
import Synchronization
import TestSupport

/// One simulated device: its marks, sync token and hybrid logical clock in memory, behind the
/// same ``MarkSyncStore`` protocol the real store implements.
final class MarkSyncTestDevice: MarkSyncStore {
    private struct State {
        var marks: [String: Mark] = [:]
        var token: String?
        var clock: HybridLogicalClock
    }

    let deviceID: String
    private let state: Mutex<State>
    private let losesWrites = Mutex(false)

    /// While true, ``applyStatus(marks:syncToken:observed:)`` saves nothing, as if the process
    /// died before the save.
    var crashesBeforeSaving: Bool {
        get { losesWrites.withLock { $0 } }
        set { losesWrites.withLock { $0 = newValue } }
    }

    /// A device whose wall clock reads `wallClock`.
    init(_ deviceID: String, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMillis) {
        self.deviceID = deviceID
        self.state = Mutex(State(clock: HybridLogicalClock(wallClock: wallClock)))
    }

    /// The user marks a video as the store does: a pending mark with a fresh clock reading, based
    /// on the server version it knew (the other device's, when this settles a conflict).
    @discardableResult
    func mark(_ videoID: String, _ status: WatchStatus) -> Mark {
        state.withLock { state in
            let previous = state.marks[videoID]
            let mark = Mark(videoID: videoID, status: status, hlc: state.clock.now(), deviceID: deviceID,
                            syncState: .pending, base: previous?.syncState == .conflict ? previous?.theirs : previous?.base)
            state.marks[videoID] = mark
            return mark
        }
    }

    /// Every mark by video id.
    var allMarks: [String: Mark] { state.withLock { $0.marks } }

    func pendingMarks() -> [Mark] {
        state.withLock { $0.marks.values.filter { $0.syncState == .pending }.sorted { $0.hlc < $1.hlc } }
    }

    func markSyncToken() -> String? { state.withLock { $0.token } }

    func reconcileMarks(
        videoIDs: [String], syncToken: String?, observed: HybridTimestamp?, pullFinished: Bool,
        _ reconcile: ([String: Mark]) -> MarkSyncUpdate
    ) {
        state.withLock { state in
            var current: [String: Mark] = [:]
            for id in videoIDs { current[id] = state.marks[id] }
            let updated = reconcile(current)
            guard !crashesBeforeSaving else { return }
            for mark in updated.marks { state.marks[mark.videoID] = mark }
            for id in updated.removedVideoIDs { state.marks[id] = nil }
            if let syncToken { state.token = syncToken }
            if let observed { state.clock.observe(observed) }
        }
    }
}

/// A real mark-sync server on 127.0.0.1 with one user, and mark syncs for devices of that user.
struct MarkSyncTestServer {
    let service: MarkSyncService
    let server: MarkSyncLoopbackServer
    let token: String

    /// Short waits, so tests that meet faults do not sleep for seconds.
    static let fastRetries = RetryPolicy(delays: [.milliseconds(5), .milliseconds(10), .milliseconds(20)], jitter: 0)

    static func start(
        configuration: MarkSyncConfiguration = MarkSyncConfiguration(requestsPerSecond: nil),
        firstMiddleware: (any RouterMiddleware<BasicRequestContext>)? = nil
    ) async throws -> MarkSyncTestServer {
        let service = MarkSyncService(repository: try SQLiteMarkSyncRepository(), configuration: configuration)
        let token = try await service.addUser(name: "user")
        return MarkSyncTestServer(service: service, server: try await MarkSyncLoopbackServer.start(service: service, firstMiddleware: firstMiddleware), token: token)
    }

    var client: MarkSyncClient {
        MarkSyncClient(endpoint: MarkSyncEndpoint(serverURL: server.baseURL, environment: "development"), userToken: token, timeoutSeconds: 10, retryPolicy: Self.fastRetries)
    }

    func sync(_ device: any MarkSyncStore, policy: ConflictPolicy = .ask, batchSize: Int = 200) -> MarkSync {
        MarkSync(client: client, store: device, policy: policy, batchSize: batchSize)
    }

    /// The server's records as video id → status.
    func serverStatuses() async throws -> [String: String] {
        var statuses: [String: String] = [:]
        var token: String?
        while true {
            let response = try await client.zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: MarkSyncZoneID(zoneName: WatchedRecord.zoneName), syncToken: token)]))
            guard case .success(let changes) = response.zones.first else { return statuses }
            for record in changes.records { if let layout = WatchedRecord(record) { statuses[layout.videoID] = layout.status } }
            token = changes.syncToken
            if !changes.moreComing { return statuses }
        }
    }
}
