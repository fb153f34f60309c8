import Foundation
import GRDB
import MeTubeAPI
import MeTubeCore
import Testing
@testable import MeTubeServer

/// `SQLiteBindings`, which binds the status records' lookups and writes straight through SQLite:
/// what it binds reads back as it was, through the repository that uses it, and a statement whose
/// placeholders it does not fill exactly is never run.
@Suite struct SQLiteBindingsTests {
    static let hostileStrings = [
        "", "watched", "He said \"hi\" \\ back\nnew\ttab\r\u{08}\u{01}\u{1F}\u{7F}", "'); DROP TABLE status_records; --", "東京 🌃 \u{2028}",
        "e\u{301}", "\u{FEFF}bom", "🏳️‍🌈", "?", "?1", ":name", String(repeating: "x", count: 255),
    ]

    static func string(_ random: inout SplitMix64) -> String {
        if Bool.random(using: &random) { return hostileStrings.randomElement(using: &random)! }
        let scalars = (0..<Int.random(in: 0...20, using: &random)).map { _ in
            Character(Unicode.Scalar(UInt32.random(in: 1...0xD7FF, using: &random))!)
        }
        return String(scalars)
    }

    static func millis(_ random: inout SplitMix64) -> Int64 {
        [Int64.min, -1, 0, 1, Int64.max, Int64.random(in: .min ... .max, using: &random)].randomElement(using: &random)!
    }

    /// `count` records with distinct names made of hostile and random text.
    static func records(_ count: Int, _ random: inout SplitMix64) -> [StoredMarkSyncRecord] {
        (0..<count).map { index in
            var fields: [String: MarkSyncField] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                fields[string(&random)] = MarkSyncField(value: .string(string(&random)), type: "STRING")
            }
            return StoredMarkSyncRecord(
                name: index == 0 ? "" : "\(string(&random))#\(index)", type: string(&random), fields: fields,
                sequence: millis(&random), createdMillis: millis(&random), modifiedMillis: millis(&random), isDeleted: Bool.random(using: &random))
        }
    }

    @Test("records written through the bindings read back as they were, across the chunks of a statement", arguments: [1, 99, 100, 101, 250, 251, 333])
    func recordsReadBack(count: Int) async throws {
        var random = SplitMix64(seed: UInt64(count))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-bindings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let repository = try SQLiteMarkSyncRepository(path: directory.appendingPathComponent("status.sqlite").path)
        let user = try #require(try await repository.addUser(name: "erin", tokenHash: "hash"))
        let zone = MarkSyncZoneKey(database: MarkSyncDatabaseKey(userID: user.id, container: "c", environment: "production"), zoneName: "z")
        let written = Self.records(count, &random)
        // Given the records are saved in one transaction
        try await repository.modify(MarkSyncModifyReads(zone: zone, names: [], userID: user.id) { _, _ in false }) { _ in
            ((), MarkSyncModifyWrites(zone: StoredMarkSyncZone(key: zone, incarnation: 1), records: written, usage: .zero, userID: user.id))
        }
        // When they are looked up by name, with names that are not there between them
        let names = written.map(\.name) + ["missing", "?", "#1"]
        let records = try #require(try await repository.zone(zone, records: .named(names.shuffled()))).records
        let found = Dictionary(uniqueKeysWithValues: records.map { ($0.name, $0) })
        // Then each reads back as it was (its fields as the fields codec keeps them, its size as
        // its quota counts it), and nothing else
        let expected = try Dictionary(uniqueKeysWithValues: written.map { record in
            var kept = record
            let stored = try MarkSyncFieldsCodec.stored(record.fields)
            kept.fields = try MarkSyncFieldsCodec.fields(stored: stored, of: record.name)
            kept.storedBytes = MarkSyncRecordBytes.of(name: record.name, type: record.type, storedFieldBytes: stored.count)
            return (record.name, kept)
        })
        #expect(found == expected)
    }

    @Test("a statement given fewer or more values than its placeholders is not run")
    func placeholdersMustBeFilledExactly() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER, b TEXT)")
            var tooFew = SQLiteBindings(try db.cachedStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)"))
            try tooFew.bind(1 as Int64)
            #expect(throws: ServerError.storage(.failed("1 values bound to a statement of 2 placeholders: INSERT INTO t (a, b) VALUES (?, ?)"))) { try tooFew.execute() }
            var tooMany = SQLiteBindings(try db.cachedStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)"))
            try tooMany.bind(2 as Int64)
            try tooMany.bind("two")
            #expect(throws: ServerError.self) { try tooMany.bind(true) }
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 0)
            // And the statement is good for the next binding, which starts again at its first placeholder
            try tooMany.execute()
            var again = SQLiteBindings(try db.cachedStatement(sql: "INSERT INTO t (a, b) VALUES (?, ?)"))
            try again.bind(3 as Int64)
            try again.bind("three")
            try again.execute()
            #expect(try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY a") == [["a": 2, "b": "two"], ["a": 3, "b": "three"]])
        }
    }

    @Test("empty text and empty bytes bind as empty values, never NULL; text keeps every byte")
    func emptyValuesAreNotNull() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT NOT NULL, b BLOB NOT NULL, c TEXT NOT NULL)")
            var bindings = SQLiteBindings(try db.cachedStatement(sql: "INSERT INTO t (a, b, c) VALUES (?, ?, ?)"))
            try bindings.bind("")
            try bindings.bind(Data())
            try bindings.bind("a\u{0}b")
            try bindings.execute()
            let row = try #require(try Row.fetchOne(db, sql: "SELECT typeof(a), length(a), typeof(b), length(b), length(CAST(c AS BLOB)) FROM t"))
            #expect(row[0] as String == "text" && row[1] as Int == 0)
            #expect(row[2] as String == "blob" && row[3] as Int == 0)
            #expect(row[4] as Int == 3)
        }
    }
}
