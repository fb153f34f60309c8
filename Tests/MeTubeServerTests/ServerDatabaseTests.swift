import Foundation
import GRDB
import MeTubeAPI
import MeTubeCore
import Testing
@testable import MeTubeServer

/// The one database file: its migration from the two-file layout, its permissions, its
/// durability and its refusal of a newer schema.
@Suite struct ServerDatabaseTests {
    @Test func aTwoFileInstallationIsMergedIntoOneFileWithItsDataKept() async throws {
        // Given hub.sqlite and hub-status.sqlite as the two-file versions wrote them (mode 0644)
        let folder = try Self.folder()
        let hubPath = folder + "/hub.sqlite"
        let fixture = try LegacyTwoFileFixture(hubPath: hubPath, markSyncPath: folder + "/hub-status.sqlite")

        // When the server opens hub.sqlite
        let database = try ServerDatabase(path: hubPath)

        // Then the hub still answers its pages and hands out the next seq
        let hub = try SQLiteHubRepository(database: database)
        let page = try await hub.videos(matching: HubVideoSelection(channelIDs: [fixture.channelID], limit: 10))
        #expect(page.videos.map(\.seq) == [1, 3])
        #expect(page.videos.map(\.title) == ["first", "third, renamed"])
        _ = try await hub.ingest(FeedIngestion(channelID: fixture.channelID, channelTitle: nil, videos: [HubTestSupport.video(9, channel: fixture.channelID)]))
        #expect(try await hub.videos(matching: HubVideoSelection(afterSeq: 3)).videos.map(\.seq) == [4])

        // And alice's token, records, tombstone, change tags and sync token still work
        let service = MarkSyncService(repository: SQLiteMarkSyncRepository(database: database), configuration: MarkSyncConfiguration(requestsPerSecond: nil))
        let caller = try await service.authenticate(container: MarkSyncConfiguration.defaultContainer, environment: "production", apiToken: "metube", webAuthToken: fixture.token)
        #expect(caller.user == MarkSyncUser(id: 7, name: "alice"))
        let zoneID = MarkSyncZoneID(zoneName: WatchedRecord.zoneName)
        let lookup = try await service.lookupRecords(MarkSyncRecordsLookupRequest(records: [.init(recordName: "v1"), .init(recordName: "v2")], zoneID: zoneID), caller: caller)
        #expect(lookup.records.first?.record.flatMap(WatchedRecord.init)?.status == "watched")
        #expect(lookup.records.last?.errorCode == .notFound)
        let updated = try await service.modifyRecords(
            MarkSyncRecordsModifyRequest(operations: [.init(.update, record: watched("v1", "skipped", tag: fixture.changeTagOfV1))], zoneID: zoneID), bodyBytes: 0, caller: caller)
        #expect(updated.records.first?.record != nil)
        let changes = try await service.zoneChanges(MarkSyncZoneChangesRequest(zones: [.init(zoneID: zoneID, syncToken: fixture.syncToken)]), caller: caller)
        guard case .success(let zone) = changes.zones.first else { Issue.record("\(changes)"); return }
        #expect(zone.records.map(\.recordName) == ["v2", "v1"])
        #expect(zone.records.first?.deleted == true)

        // And the status file was renamed, not deleted, and everything is in one private file
        #expect(!FileManager.default.fileExists(atPath: folder + "/hub-status.sqlite"))
        #expect(FileManager.default.fileExists(atPath: folder + "/hub-status.sqlite.imported"))
        #expect(try Self.mode(hubPath) == 0o600)
        let tables = try await database.writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
        #expect(tables.contains("status_records") && tables.contains("hub_videos") && !tables.contains("schema_migrations"))
    }

    @Test func aMarkSyncFileNamedByStatusDBIsImportedAndAReopenImportsNothingTwice() async throws {
        // Given a two-file installation whose status file lives elsewhere (`--status-db`)
        let folder = try Self.folder()
        let fixture = try LegacyTwoFileFixture(hubPath: folder + "/hub.sqlite", markSyncPath: folder + "/elsewhere.db")

        // When the server starts twice with --database and --status-db
        _ = try ServerDatabase(path: folder + "/hub.sqlite", legacyMarkSyncPath: folder + "/elsewhere.db")
        let database = try ServerDatabase(path: folder + "/hub.sqlite", legacyMarkSyncPath: folder + "/elsewhere.db")

        // Then alice was imported once
        let user = try await SQLiteMarkSyncRepository(database: database).user(tokenHash: MarkSyncTokenHasher.hash(fixture.token))
        #expect(user?.name == "alice")
        #expect(FileManager.default.fileExists(atPath: folder + "/elsewhere.db.imported"))
    }

    @Test func aMarkSyncFileIsNotMergedIntoADatabaseThatAlreadyHasUsers() async throws {
        // Given a one-file database with a user, and a two-file status file beside it
        let folder = try Self.folder()
        let path = folder + "/hub.sqlite"
        _ = try await MarkSyncService(repository: SQLiteMarkSyncRepository(path: path)).addUser(name: "bob")
        let legacy = folder + "/other.sqlite"
        _ = try LegacyTwoFileFixture(hubPath: folder + "/other-hub.sqlite", markSyncPath: legacy)

        // When the server is started with that status file
        // Then it refuses, naming both files, and leaves the status file where it was
        let error = #expect(throws: ServerError.self) { try ServerDatabase(path: path, legacyMarkSyncPath: legacy) }
        #expect(error?.description.contains("other.sqlite") == true)
        #expect(FileManager.default.fileExists(atPath: legacy))
    }

    @Test func aNewFileAndItsJournalsAreCreated0600AndWritesAreFullySynchronous() async throws {
        // Given no file
        let folder = try Self.folder()
        let path = folder + "/new.sqlite"

        // When the server creates it and writes
        let database = try ServerDatabase(path: path)
        _ = try await SQLiteHubRepository(database: database).register(channelIDs: [HubTestSupport.channelID(1)])

        // Then the file, its WAL and shared-memory files are private, and commits are synchronous=FULL
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(try Self.mode(file) == 0o600, "\(file)")
        }
        #expect(try await database.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 2)
        #expect(try await database.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func aFileWrittenByANewerServerIsRefused() throws {
        // Given a file with a migration this program does not know
        let folder = try Self.folder()
        let path = folder + "/newer.sqlite"
        do {
            let database = try ServerDatabase(path: path)
            try database.writer.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('999-from-the-future')") }
        }

        // When it is opened
        // Then it is refused with a message that says why
        let error = #expect(throws: ServerError.self) { try ServerDatabase(path: path) }
        #expect(error?.description.contains("newer") == true)
    }

    @Test func aFileMigratedUnderTheFormerStepNamesOpensWithItsStepsRenamedAndNoneRunAgain() async throws {
        // Given a file as the server wrote it before the step names started with sqlite- (the
        // same steps, recorded under their former names), holding a channel
        let path = try Self.folder() + "/former.sqlite"
        do {
            let database = try ServerDatabase(path: path)
            #expect(ServerDatabase.migrator.migrations.allSatisfy { $0.hasPrefix("sqlite-") })
            _ = try await SQLiteHubRepository(database: database).register(channelIDs: [HubTestSupport.channelID(2)])
            try await database.writer.write { db in
                for (former, name) in ServerDatabase.formerMigrationNames {
                    try db.execute(sql: "UPDATE grdb_migrations SET identifier = ? WHERE identifier = ?", arguments: [former, name])
                }
            }
            let recorded = try await database.writer.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
            let formerByName = Dictionary(uniqueKeysWithValues: ServerDatabase.formerMigrationNames.map { ($1, $0) })
            #expect(Set(recorded) == Set(ServerDatabase.migrator.migrations.map { formerByName[$0] ?? $0 }))
        }

        // When the server opens it (a step run again would fail: its columns exist)
        let reopened = try ServerDatabase(path: path)

        // Then the steps carry their new names, and the data is there
        let names = try await reopened.writer.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(Set(names) == Set(ServerDatabase.migrator.migrations))
        #expect(try await SQLiteHubRepository(database: reopened).registeredChannelIDs() == [HubTestSupport.channelID(2)])
    }

    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("metube-database-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0) & 0o777
    }
}

/// Two files exactly as the two-file versions wrote them: their hand-written migration table,
/// the schemas of `hub-001-channels-videos` and `status-001-users-zones-records` verbatim, WAL
/// mode, mode 0644, and rows as those versions stored them.
struct LegacyTwoFileFixture {
    let channelID = HubTestSupport.channelID(1)
    let token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    /// Zone incarnation 1234 (base 36 "ya"), record v1 written at sequence 1.
    let changeTagOfV1 = "ya-1"
    /// The position after v1's creation (sequence 1); v2's deletion (2) came later.
    let syncToken = "Sya-1"

    init(hubPath: String, markSyncPath: String) throws {
        let migrationTable = "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"
        try Self.write(hubPath, """
            PRAGMA journal_mode=WAL;
            \(migrationTable);
            CREATE TABLE hub_channels (
                channel_id TEXT PRIMARY KEY,
                title TEXT,
                thumbnail_url TEXT,
                registered_at INTEGER NOT NULL
            );
            CREATE TABLE hub_videos (
                seq INTEGER PRIMARY KEY,
                video_id TEXT NOT NULL UNIQUE,
                channel_id TEXT NOT NULL,
                published_at REAL NOT NULL,
                title TEXT NOT NULL,
                url TEXT NOT NULL,
                duration_seconds INTEGER
            );
            CREATE INDEX hub_videos_channel_published ON hub_videos (channel_id, published_at DESC, seq DESC);
            CREATE INDEX hub_videos_channel_seq ON hub_videos (channel_id, seq);
            CREATE TABLE hub_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
            INSERT INTO hub_counters (name, value) VALUES ('last_seq', 0);
            INSERT INTO schema_migrations (name) VALUES ('hub-001-channels-videos');
            INSERT INTO hub_channels VALUES ('\(channelID)', 'Channel One', NULL, 1765650000);
            INSERT INTO hub_videos VALUES (1, 'AAAAAAAAAAA', '\(channelID)', 1765650000.5, 'first', 'https://www.youtube.com/watch?v=AAAAAAAAAAA', 61);
            INSERT INTO hub_videos VALUES (3, 'BAAAAAAAAAA', '\(channelID)', 1765650060.0, 'third, renamed', 'https://www.youtube.com/shorts/BAAAAAAAAAA', NULL);
            UPDATE hub_counters SET value = 3 WHERE name = 'last_seq';
            """)
        let fields = String(decoding: try JSONEncoder().encode(
            WatchedRecord(videoID: "v1", status: "watched", lastModified: 1_765_650_000_000, hlc: "1765650000000-0", deviceID: "old").record(changeTag: nil).fields ?? [:]
        ), as: UTF8.self)
        try Self.write(markSyncPath, """
            PRAGMA journal_mode=WAL;
            \(migrationTable);
            CREATE TABLE status_users (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                token_hash TEXT NOT NULL UNIQUE
            );
            CREATE TABLE status_zones (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES status_users(id),
                container TEXT NOT NULL,
                environment TEXT NOT NULL,
                name TEXT NOT NULL,
                incarnation INTEGER NOT NULL,
                last_sequence INTEGER NOT NULL,
                UNIQUE (user_id, container, environment, name)
            );
            CREATE TABLE status_records (
                zone_id INTEGER NOT NULL REFERENCES status_zones(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                type TEXT NOT NULL,
                fields BLOB NOT NULL,
                sequence INTEGER NOT NULL,
                created_millis INTEGER NOT NULL,
                modified_millis INTEGER NOT NULL,
                deleted INTEGER NOT NULL,
                PRIMARY KEY (zone_id, name)
            ) WITHOUT ROWID;
            CREATE INDEX status_records_by_sequence ON status_records (zone_id, sequence);
            INSERT INTO schema_migrations (name) VALUES ('status-001-users-zones-records');
            INSERT INTO status_users VALUES (7, 'alice', '\(MarkSyncTokenHasher.hash(token))');
            INSERT INTO status_zones VALUES (3, 7, '\(MarkSyncConfiguration.defaultContainer)', 'production', '\(WatchedRecord.zoneName)', 1234, 2);
            INSERT INTO status_zones VALUES (4, 7, '\(MarkSyncConfiguration.defaultContainer)', 'production', '_defaultZone', 99, 1);
            INSERT INTO status_records VALUES (3, 'v1', 'WatchedStatus', CAST('\(fields)' AS BLOB), 1, 1765650000000, 1765650000000, 0);
            INSERT INTO status_records VALUES (3, 'v2', 'WatchedStatus', CAST('{}' AS BLOB), 2, 1765650000000, 1765650001000, 1);
            INSERT INTO status_records VALUES (4, 'v3', 'WatchedStatus', CAST('{}' AS BLOB), 1, 1765650000000, 1765650000000, 0);
            """)
    }

    private static func write(_ path: String, _ sql: String) throws {
        FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644])
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        try queue.close()
    }
}
