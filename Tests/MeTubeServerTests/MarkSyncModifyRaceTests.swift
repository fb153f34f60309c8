import Foundation
import MeTubeAPI
import MeTubeServer
import ServerTestSupport
import TestSupport
import Testing

@Suite("Status records/modify from several devices at once")
struct MarkSyncModifyRaceTests {
    /// Services over one fresh storage of `storage`, the way devices meet it: one service for
    /// SQLite (one process owns the file), two instances sharing one database for PostgreSQL.
    private static func services(on storage: MarkSyncStorage) async throws -> [MarkSyncService] {
        guard storage == .postgres else { return [MarkSyncService(repository: try await storage.makeRepository())] }
        let url = try PostgresDatabaseURL(parsing: try PostgresTestCluster.database())
        return [
            MarkSyncService(repository: PostgresMarkSyncRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 4))),
            MarkSyncService(repository: PostgresMarkSyncRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 4))),
        ]
    }

    /// A user's zone on services over one fresh storage of `storage`, and the user's caller on
    /// each service.
    private static func sharedZone(on storage: MarkSyncStorage, user name: String) async throws -> (services: [MarkSyncService], callers: [MarkSyncCaller], zoneID: MarkSyncZoneID) {
        let services = try await Self.services(on: storage)
        let token = try await services[0].addUser(name: name)
        var callers: [MarkSyncCaller] = []
        for service in services {
            callers.append(try await service.authenticate(container: MarkSyncConfiguration.defaultContainer, environment: "production", apiToken: "metube", webAuthToken: token))
        }
        let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
        _ = try await services[0].modifyZones(MarkSyncZonesModifyRequest(operations: [.init(.create, zone: zoneID)]), caller: callers[0])
        return (services, callers, zoneID)
    }

    @Test("8 devices update one record with the same change tag at once: exactly one wins, the others conflict with the winner's record", arguments: MarkSyncStorage.allCases)
    func sameChangeTag(storage: MarkSyncStorage) async throws {
        // Given a record v1 and its change tag
        let (services, callers, zoneID) = try await Self.sharedZone(on: storage, user: "erin")
        let created = try await services[0].modifyRecords(
            MarkSyncRecordsModifyRequest(operations: [.init(.create, record: watched("v1"))], zoneID: zoneID), bodyBytes: 0, caller: callers[0])
        let tag = try #require(created.records.first?.record?.recordChangeTag)

        // When 8 devices, spread over the services, update v1 with that tag at once, each to its own value
        let devices = 8
        let answers = try await withThrowingTaskGroup(of: (Int, MarkSyncRecordResult?).self) { group in
            for device in 0..<devices {
                group.addTask {
                    let service = services[device % services.count]
                    let answer = try await service.modifyRecords(
                        MarkSyncRecordsModifyRequest(operations: [.init(.update, record: watched("v1", "device-\(device)", tag: tag))], zoneID: zoneID),
                        bodyBytes: 0, caller: callers[device % callers.count])
                    return (device, answer.records.first)
                }
            }
            return try await group.reduce(into: [Int: MarkSyncRecordResult?]()) { $0[$1.0] = $1.1 }
        }

        // Then one update succeeded, every other one conflicts and is shown the winner's record,
        // and the stored record is the winner's, one change after the tag
        let winners = answers.compactMap { device, answer in answer?.record != nil ? device : nil }
        try #require(winners.count == 1, "updates that succeeded with the same change tag: \(winners)")
        let winner = "device-\(winners[0])"
        for (device, answer) in answers where device != winners[0] {
            guard case .failure(let conflict) = answer else { Issue.record("device \(device): \(String(describing: answer))"); continue }
            #expect(conflict.serverErrorCode == .conflict)
            #expect(conflict.serverRecord.flatMap(WatchedRecord.init)?.status == winner)
        }
        let stored = try await services[0].lookupRecords(MarkSyncRecordsLookupRequest(records: [.init(recordName: "v1")], zoneID: zoneID), caller: callers[0])
        #expect(stored.records.first?.record.flatMap(WatchedRecord.init)?.status == winner)
        let changes = try await services[0].zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID)]), caller: callers[0])
        guard case .success(let zone) = changes.zones.first else { Issue.record("no changes"); return }
        #expect(zone.records.map(\.recordName) == ["v1"])
        #expect(zone.records.first?.recordChangeTag != tag)
    }

    @Test("8 devices each write 10 records to one zone at once: all 80 are stored, each under its own change tag, in one history", arguments: MarkSyncStorage.allCases)
    func manyDevicesOneZone(storage: MarkSyncStorage) async throws {
        // Given one zone of one user
        let (services, callers, zoneID) = try await Self.sharedZone(on: storage, user: "frank")

        // When 8 devices, spread over the services, each create 10 records one request at a time
        let (devices, perDevice) = (8, 10)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for device in 0..<devices {
                group.addTask {
                    for number in 0..<perDevice {
                        let answer = try await services[device % services.count].modifyRecords(
                            MarkSyncRecordsModifyRequest(operations: [.init(.create, record: watched("d\(device)-\(number)"))], zoneID: zoneID),
                            bodyBytes: 0, caller: callers[device % callers.count])
                        guard answer.records.first?.record != nil else { throw DeviceFailure(description: "device \(device), record \(number): \(answer.records)") }
                    }
                }
            }
            try await group.waitForAll()
        }

        // Then the zone's history holds every record once, each with a change tag of its own
        let changes = try await services[0].zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID)]), caller: callers[0])
        guard case .success(let zone) = changes.zones.first else { Issue.record("no changes"); return }
        #expect(zone.records.count == devices * perDevice)
        #expect(Set(zone.records.compactMap(\.recordName)).count == devices * perDevice)
        #expect(Set(zone.records.compactMap(\.recordChangeTag)).count == devices * perDevice)
        #expect(!zone.moreComing)
    }
}

/// A device whose write did not succeed.
private struct DeviceFailure: Error, CustomStringConvertible {
    let description: String
}
