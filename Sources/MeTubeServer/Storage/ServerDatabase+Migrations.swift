import GRDB

extension ServerDatabase {
    /// Every schema step of the hub and the status service, in order; append only.
    ///
    /// The first two steps are the schemas of the two-file layout, written so that they run on a
    /// file of that layout without changing it (`IF NOT EXISTS`): such a file is adopted as it is.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("hub-001-channels-videos") { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS hub_channels (
                    channel_id TEXT PRIMARY KEY,
                    title TEXT,
                    thumbnail_url TEXT,
                    registered_at INTEGER NOT NULL
                );
                CREATE TABLE IF NOT EXISTS hub_videos (
                    seq INTEGER PRIMARY KEY,
                    video_id TEXT NOT NULL UNIQUE,
                    channel_id TEXT NOT NULL,
                    published_at REAL NOT NULL,
                    title TEXT NOT NULL,
                    url TEXT NOT NULL,
                    duration_seconds INTEGER
                );
                CREATE INDEX IF NOT EXISTS hub_videos_channel_published ON hub_videos (channel_id, published_at DESC, seq DESC);
                CREATE INDEX IF NOT EXISTS hub_videos_channel_seq ON hub_videos (channel_id, seq);
                CREATE TABLE IF NOT EXISTS hub_counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
                INSERT OR IGNORE INTO hub_counters (name, value) VALUES ('last_seq', 0);
                """)
        }
        migrator.registerMigration("status-001-users-zones-records") { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS status_users (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    token_hash TEXT NOT NULL UNIQUE
                );
                CREATE TABLE IF NOT EXISTS status_zones (
                    id INTEGER PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES status_users(id),
                    container TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    name TEXT NOT NULL,
                    incarnation INTEGER NOT NULL,
                    last_sequence INTEGER NOT NULL,
                    UNIQUE (user_id, container, environment, name)
                );
                CREATE TABLE IF NOT EXISTS status_records (
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
                CREATE INDEX IF NOT EXISTS status_records_by_sequence ON status_records (zone_id, sequence);
                """)
        }
        migrator.registerMigration("001-drop-two-file-migration-table") { db in
            try db.execute(sql: "DROP TABLE IF EXISTS schema_migrations")
        }
        migrator.registerMigration("admin-001-user-created-last-seen") { db in
            try db.execute(sql: """
                ALTER TABLE status_users ADD COLUMN created_millis INTEGER;
                ALTER TABLE status_users ADD COLUMN last_seen_millis INTEGER;
                """)
        }
        return migrator
    }()
}
