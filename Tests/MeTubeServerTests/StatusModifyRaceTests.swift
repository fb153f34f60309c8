import Foundation
import MeTubeAPI
import MeTubeServer
import Synchronization
import Testing

@Suite("Status records/modify racing another write")
struct StatusModifyRaceTests {
    @Test("a request worked out before another write to its zone is worked out again: its stale change tag conflicts, its sequence follows")
    func stalePlan() async throws {
        // Given a zone with record v1, and a repository that lets another client update v1 just
        // after the next request has read the zone (fault injection: between its read and its write)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inner = try SQLiteMarkSyncRepository(path: directory.appendingPathComponent("status.sqlite").path)
        let racing = InterleavingRepository(inner: inner)
        let direct = MarkSyncService(repository: inner)
        let service = MarkSyncService(repository: racing)
        let token = try await direct.addUser(name: "erin")
        let caller = try await direct.authenticate(container: MarkSyncConfiguration.defaultContainer, environment: "production", apiToken: "metube", webAuthToken: token)
        let zoneID = MarkSyncZoneID(zoneName: WatchedStatusRecord.zoneName)
        _ = try await direct.modifyZones(MarkSyncZonesModifyRequest(operations: [.init(.create, zone: zoneID)]), caller: caller)
        let created = try await direct.modifyRecords(MarkSyncRecordsModifyRequest(operations: [.init(.create, record: watched("v1"))], zoneID: zoneID), bodyBytes: 0, caller: caller)
        let tag = try #require(created.records.first?.record?.recordChangeTag)
        racing.afterNextRead {
            _ = try await direct.modifyRecords(
                MarkSyncRecordsModifyRequest(operations: [.init(.update, record: watched("v1", "skipped", tag: tag))], zoneID: zoneID), bodyBytes: 0, caller: caller)
        }

        // When a request updates v1 with the tag it had, and writes v2
        let answer = try await service.modifyRecords(
            MarkSyncRecordsModifyRequest(operations: [.init(.update, record: watched("v1", "watched", tag: tag)), .init(.forceReplace, record: watched("v2"))], zoneID: zoneID, atomic: false),
            bodyBytes: 0, caller: caller)

        // Then the update conflicts with the other client's, v2 is written after it, and the
        // zone's history holds both changes in order
        #expect(racing.interleaved)
        guard case .failure(let conflict) = answer.records.first else { Issue.record("the stale update was applied: \(answer.records)"); return }
        #expect(conflict.serverErrorCode == .conflict)
        #expect(conflict.serverRecord.flatMap(WatchedStatusRecord.init)?.status == "skipped")
        let changes = try await direct.zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID)]), caller: caller)
        guard case .success(let zone) = changes.zones.first else { Issue.record("no changes"); return }
        #expect(zone.records.map(\.recordName) == ["v1", "v2"])
        #expect(Set(zone.records.compactMap(\.recordChangeTag)).count == 2)
    }
}

/// A status repository that runs a write of another client right after its next read
/// transaction, before the caller goes on: the interleaving a busy server makes by chance.
private final class InterleavingRepository: MarkSyncRepository {
    private let inner: SQLiteMarkSyncRepository
    private let pending = Mutex<(@Sendable () async throws -> Void)?>(nil)
    private let ran = Mutex(false)

    init(inner: SQLiteMarkSyncRepository) {
        self.inner = inner
    }

    /// Whether the interleaved write ran.
    var interleaved: Bool { ran.withLock { $0 } }

    /// Runs `write` once, after the next read transaction.
    func afterNextRead(_ write: @escaping @Sendable () async throws -> Void) {
        pending.withLock { $0 = write }
    }

    func addUser(name: String, tokenHash: String) async throws -> MarkSyncUser? { try await inner.addUser(name: name, tokenHash: tokenHash) }
    func user(tokenHash: String) async throws -> MarkSyncUser? { try await inner.user(tokenHash: tokenHash) }
    func recordSeen(userID: Int64, atMillis millis: Int64) async throws { try await inner.recordSeen(userID: userID, atMillis: millis) }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any MarkSyncTransaction) throws -> T) async throws -> T {
        try await inner.transaction(body)
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any MarkSyncTransaction) throws -> T) async throws -> T {
        let result = try await inner.read(body)
        if let write = pending.withLock({ pending in defer { pending = nil }; return pending }) {
            try await write()
            ran.withLock { $0 = true }
        }
        return result
    }
}
