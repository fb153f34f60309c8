import Foundation
import Testing
@testable import MeTubeServer

@Suite struct HubSQLiteTests {
    static let migrations = [
        SQLiteMigration("001-items", sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, weight REAL, data BLOB)"),
        SQLiteMigration("002-items-note", sql: "ALTER TABLE items ADD COLUMN note TEXT"),
    ]

    @Test func valuesRoundTripThroughAFileDatabase() throws {
        // Given a new database file with both migrations
        let path = temporaryPath()
        let database = try SQLiteDatabase(path: path, migrations: Self.migrations)

        // When rows with every value kind are written and read back
        try database.write { connection in
            try connection.run("INSERT INTO items (name, weight, data, note) VALUES (?, ?, ?, ?)", ["日本語 🎉", 1.5, .blob([0, 1, 255]), nil])
            try connection.run("INSERT INTO items (name) VALUES (?)", ["plain"])
        }
        let rows = try database.read { connection in
            try connection.query("SELECT name, weight, data, note FROM items ORDER BY id") { row in
                "\(row.text(0))|\(row.isNull(1) ? "-" : String(row.double(1)))|\(row.blob(2))|\(row.optionalText(3) ?? "nil")"
            }
        }

        // Then everything comes back as written
        #expect(rows == ["日本語 🎉|1.5|[0, 1, 255]|nil", "plain|-|[]|nil"])
    }

    @Test func aFailingTransactionLeavesNoTrace() throws {
        // Given a database with one row
        let database = try SQLiteDatabase(path: temporaryPath(), migrations: Self.migrations)
        try database.write { try $0.run("INSERT INTO items (name) VALUES ('a')") }

        // When a transaction inserts a row and then violates a constraint
        #expect(throws: SQLiteError.self) {
            try database.write { connection in
                try connection.run("INSERT INTO items (name) VALUES ('b')")
                try connection.run("INSERT INTO items (name) VALUES ('a')")
            }
        }

        // Then the first insert was rolled back too
        #expect(try database.read { try $0.scalar("SELECT count(*) FROM items") } == 1)
    }

    @Test func reopeningAppliesOnlyNewMigrationsAndRefusesANewerSchema() throws {
        // Given a file migrated with the first step only
        let path = temporaryPath()
        _ = try SQLiteDatabase(path: path, migrations: [Self.migrations[0]])

        // When it is reopened with both steps, then with a list that lacks a recorded step
        let upgraded = try SQLiteDatabase(path: path, migrations: Self.migrations)
        let applied = try upgraded.read { try $0.query("SELECT name FROM schema_migrations ORDER BY name") { $0.text(0) } }

        // Then the second step ran once, and an older program is refused with a clear message
        #expect(applied == ["001-items", "002-items-note"])
        let error = #expect(throws: SQLiteError.self) { try SQLiteDatabase(path: path, migrations: []) }
        #expect(error?.message.contains("newer version") == true)
    }

    @Test func badSQLNamesTheStatement() throws {
        let database = try SQLiteDatabase(path: ":memory:")
        let error = #expect(throws: SQLiteError.self) { try database.read { try $0.run("SELEC 1") } }
        #expect(error?.description.contains("SELEC 1") == true)
    }

    private func temporaryPath() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-hub-sqlite-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("test.sqlite").path
    }
}
