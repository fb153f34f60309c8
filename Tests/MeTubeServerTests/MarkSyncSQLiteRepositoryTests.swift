import Foundation
import MeTubeAPI
@testable import MeTubeServer
import Testing

@Suite("Status SQLite repository")
struct MarkSyncSQLiteRepositoryTests {
    @Test("users, zones, records and change tags survive reopening the file")
    func persistence() async throws {
        // Given a service on an SQLite file with a user, a zone and a record
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("status.sqlite").path
        let first = MarkSyncService(repository: try SQLiteMarkSyncRepository(path: path))
        let (token, caller, tag) = try await first.carolWithRecordV1()

        // When the file is opened again by a new service
        let second = MarkSyncService(repository: try SQLiteMarkSyncRepository(path: path))
        let (again, updated) = try await second.updateV1ToSkipped(token: token, tag: tag)
        let changes = try await second.zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: MarkSyncService.watchedZone)]), caller: again)

        // Then the token still works, the old change tag still matches, and the change history holds the record
        #expect(again.user == caller.user)
        #expect(updated.records.first?.record.flatMap(WatchedRecord.init)?.status == "skipped")
        guard case .success(let zone) = changes.zones.first else { Issue.record("no changes"); return }
        #expect(zone.records.map(\.recordName) == ["v1"])
    }

    @Test("concurrent writes commit together; one whose decision throws loses only its own writes")
    func groupCommit() async throws {
        // Given a repository on an SQLite file with one zone
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-status-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("status.sqlite").path
        let repository = try SQLiteMarkSyncRepository(path: path)
        let user = try #require(try await repository.addUser(name: "dave", tokenHash: "hash"))
        let zone = MarkSyncZoneKey(database: MarkSyncDatabaseKey(userID: user.id, container: "c", environment: "production"), zoneName: "z")
        let reads = MarkSyncModifyReads(zone: zone, names: [], userID: user.id) { _, _ in false }
        try await repository.modify(reads) { _ in ((), MarkSyncModifyWrites(zone: StoredMarkSyncZone(key: zone, incarnation: 1), records: [], usage: .zero, userID: user.id)) }

        // When 60 writes run at once, every third deciding to write a record and then throwing
        struct Refused: Error {}
        let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<60 {
                group.addTask {
                    do {
                        try await repository.modify(reads) { state in
                            guard index % 3 != 0, let stored = state.zone else { throw Refused() }
                            let record = StoredMarkSyncRecord(name: "r\(index)", type: "T", fields: [:], sequence: Int64(index + 1), createdMillis: 0, modifiedMillis: 0)
                            return ((), MarkSyncModifyWrites(zone: stored, records: [record], usage: .zero, userID: user.id))
                        }
                        return (index, true)
                    } catch {
                        return (index, false)
                    }
                }
            }
            return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }

        // Then exactly the ones that returned are stored, also for a new repository on the file
        #expect(outcomes.count == 60)
        #expect(outcomes.filter(\.value).keys.sorted() == (0..<60).filter { $0 % 3 != 0 })
        let reopened = try SQLiteMarkSyncRepository(path: path)
        let names = (0..<60).map { "r\($0)" }
        let stored = try #require(try await reopened.zone(zone, records: .named(names))).records
        #expect(stored.map(\.name).sorted() == (0..<60).filter { $0 % 3 != 0 }.map { "r\($0)" }.sorted())
    }

    @Test("a write that gets no place in a group commit by its request's end is refused with 503 and never written")
    func writerDeadline() async throws {
        // Given a repository whose one writer is held by a write that waits to be released
        let repository = try SQLiteMarkSyncRepository()
        let user = try #require(try await repository.addUser(name: "gina", tokenHash: "hash"))
        let zone = MarkSyncZoneKey(database: MarkSyncDatabaseKey(userID: user.id, container: "c", environment: "production"), zoneName: "z")
        let reads = MarkSyncModifyReads(zone: zone, names: [], userID: user.id) { _, _ in false }
        let (held, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let holder = Task { try await repository.modify(reads) { _ in held.signal(); release.wait(); return ((), nil) } }
        await withCheckedContinuation { continuation in DispatchQueue.global().async { held.wait(); continuation.resume() } }
        // (released after 5 s in any case, so that a writer without the deadline fails this test rather than hangs it)
        let valve = Task { try? await Task.sleep(for: .seconds(5)); release.signal() }

        // When a write that creates the zone has 200 ms left of its request
        let refused = await #expect(throws: ServerError.self) {
            try await StorageDeadline.$requestEnd.withValue(.now + .milliseconds(200)) {
                try await repository.modify(reads) { _ in ((), MarkSyncModifyWrites(zone: StoredMarkSyncZone(key: zone, incarnation: 7), records: [], usage: .zero, userID: user.id)) }
            }
        }
        release.signal()
        valve.cancel()
        try await holder.value

        // Then it is refused as unavailable, and its decision never ran once the writer was free
        guard case .storage(.unavailable(let reason))? = refused else { Issue.record("not refused as unavailable: \(String(describing: refused))"); return }
        #expect(reason.contains("writer stayed busy"))
        #expect(try await repository.zone(zone, records: .none) == nil)
    }
}
