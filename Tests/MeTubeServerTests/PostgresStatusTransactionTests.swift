import Foundation
@testable import MeTubeServer
import Testing

/// The synchronous side of a PostgreSQL status transaction, without a database: which reads a
/// body is sent back for, and what it sees of its own writes.
@Suite("PostgreSQL status transaction runs")
struct PostgresStatusTransactionTests {
    static let database = MarkSyncDatabaseKey(userID: 1, container: "iCloud.test", environment: "production")
    static let existing = MarkSyncZoneKey(database: database, zoneName: "b-zone")
    static let created = MarkSyncZoneKey(database: database, zoneName: "a-zone")

    @Test("a read not fetched yet ends the run and names itself; once fetched it is answered")
    func missingRead() throws {
        let first = PostgresMarkSyncTransaction(answers: [:])
        #expect(throws: PostgresMarkSyncRead.Missing.self) { try first.zone(Self.existing) }
        do {
            _ = try first.zone(Self.existing)
        } catch let missing as PostgresMarkSyncRead.Missing {
            #expect(missing.read == .zone(Self.existing))
        }
        let stored = StoredMarkSyncZone(key: Self.existing, incarnation: 7, lastSequence: 3)
        let second = PostgresMarkSyncTransaction(answers: [.zone(Self.existing): .zone(stored)])
        #expect(try second.zone(Self.existing) == stored)
    }

    @Test("a zone created in the run is listed in name order, holds no records without asking, and is written once")
    func createdZone() throws {
        let stored = StoredMarkSyncZone(key: Self.existing, incarnation: 7, lastSequence: 3)
        let transaction = PostgresMarkSyncTransaction(answers: [
            .zone(Self.created): .zone(nil),
            .zones(Self.database, after: nil, limit: 10): .zones([stored]),
        ])
        let zone = StoredMarkSyncZone(key: Self.created, incarnation: 9)
        try transaction.saveZone(zone)
        #expect(try transaction.zone(Self.created) == zone)
        #expect(try transaction.zones(in: Self.database, after: nil, limit: 10) == [zone, stored])
        #expect(try transaction.records(named: ["r"], in: Self.created).isEmpty)
        #expect(try transaction.changes(in: Self.created, after: 0, includeDeleted: true, limit: 10).isEmpty)
        try transaction.deleteZone(Self.existing)
        #expect(try transaction.zone(Self.existing) == nil)
        #expect(try transaction.zones(in: Self.database, after: nil, limit: 10) == [zone])
        #expect(transaction.writes.map(\.zoneKey) == [Self.created, Self.existing])
    }

    @Test("records read after the run wrote them, or a change history read after a zone change, fail rather than answer stale rows")
    func readsAfterWrites() throws {
        let stored = StoredMarkSyncZone(key: Self.existing, incarnation: 7, lastSequence: 3)
        let transaction = PostgresMarkSyncTransaction(answers: [.zone(Self.existing): .zone(stored)])
        let record = StoredMarkSyncRecord(name: "r", type: "T", fields: [:], sequence: 4, createdMillis: 1, modifiedMillis: 1)
        try transaction.saveRecords([record], in: Self.existing)
        #expect(throws: ServerError.self) { try transaction.records(named: ["r"], in: Self.existing) }
        #expect(throws: ServerError.self) { try transaction.databaseChangePosition(Self.database) }
    }
}
