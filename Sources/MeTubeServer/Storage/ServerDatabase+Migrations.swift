import GRDB

extension ServerDatabase {
    /// Every schema step of the hub and the mark-sync service, in order; append only.
    ///
    /// The first two steps are the schemas of the two-file layout, written so that they run on a
    /// file of that layout without changing it (`IF NOT EXISTS`): such a file is adopted as it is.
    /// The names start with `sqlite-`, so that they never read as the PostgreSQL steps
    /// (``PostgresMigrations``), whose numbers mean other steps; a file migrated before that holds
    /// the names of ``formerMigrationNames``, which ``renameFormerMigrations(_:)`` renames when the
    /// file is opened.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("sqlite-hub-001-channels-videos") { db in
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
        migrator.registerMigration("sqlite-status-001-users-zones-records") { db in
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
        migrator.registerMigration("sqlite-layout-001-drop-two-file-migration-table") { db in
            try db.execute(sql: "DROP TABLE IF EXISTS schema_migrations")
        }
        migrator.registerMigration("sqlite-status-002-database-change-history") { db in
            try db.execute(sql: """
                ALTER TABLE status_zones ADD COLUMN changed_at INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX status_zones_by_change ON status_zones (user_id, container, environment, changed_at);
                CREATE TABLE status_database_counters (
                    user_id INTEGER NOT NULL,
                    container TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    value INTEGER NOT NULL,
                    PRIMARY KEY (user_id, container, environment)
                ) WITHOUT ROWID;
                CREATE TABLE status_zone_deletions (
                    user_id INTEGER NOT NULL,
                    container TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    name TEXT NOT NULL,
                    changed_at INTEGER NOT NULL,
                    PRIMARY KEY (user_id, container, environment, name)
                ) WITHOUT ROWID;
                CREATE INDEX status_zone_deletions_by_change ON status_zone_deletions (user_id, container, environment, changed_at);
                CREATE TRIGGER status_zones_created AFTER INSERT ON status_zones BEGIN
                    INSERT INTO status_database_counters (user_id, container, environment, value) VALUES (NEW.user_id, NEW.container, NEW.environment, 1)
                        ON CONFLICT (user_id, container, environment) DO UPDATE SET value = value + 1;
                    UPDATE status_zones SET changed_at = (SELECT value FROM status_database_counters
                        WHERE user_id = NEW.user_id AND container = NEW.container AND environment = NEW.environment) WHERE id = NEW.id;
                    DELETE FROM status_zone_deletions
                        WHERE user_id = NEW.user_id AND container = NEW.container AND environment = NEW.environment AND name = NEW.name;
                END;
                CREATE TRIGGER status_zones_changed AFTER UPDATE OF incarnation, last_sequence ON status_zones
                WHEN OLD.incarnation != NEW.incarnation OR OLD.last_sequence != NEW.last_sequence BEGIN
                    INSERT INTO status_database_counters (user_id, container, environment, value) VALUES (NEW.user_id, NEW.container, NEW.environment, 1)
                        ON CONFLICT (user_id, container, environment) DO UPDATE SET value = value + 1;
                    UPDATE status_zones SET changed_at = (SELECT value FROM status_database_counters
                        WHERE user_id = NEW.user_id AND container = NEW.container AND environment = NEW.environment) WHERE id = NEW.id;
                END;
                CREATE TRIGGER status_zones_deleted AFTER DELETE ON status_zones BEGIN
                    INSERT INTO status_database_counters (user_id, container, environment, value) VALUES (OLD.user_id, OLD.container, OLD.environment, 1)
                        ON CONFLICT (user_id, container, environment) DO UPDATE SET value = value + 1;
                    INSERT OR REPLACE INTO status_zone_deletions (user_id, container, environment, name, changed_at)
                        SELECT OLD.user_id, OLD.container, OLD.environment, OLD.name, value FROM status_database_counters
                        WHERE user_id = OLD.user_id AND container = OLD.container AND environment = OLD.environment;
                END;
                """)
        }
        migrator.registerMigration("sqlite-admin-001-user-created-last-seen") { db in
            try db.execute(sql: """
                ALTER TABLE status_users ADD COLUMN created_millis INTEGER;
                ALTER TABLE status_users ADD COLUMN last_seen_millis INTEGER;
                """)
        }
        migrator.registerMigration("sqlite-admin-002-channel-fetch-record") { db in
            try db.execute(sql: """
                ALTER TABLE hub_channels ADD COLUMN last_fetch_millis INTEGER;
                ALTER TABLE hub_channels ADD COLUMN consecutive_failures INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE hub_channels ADD COLUMN last_failure TEXT;
                """)
        }
        migrator.registerMigration("sqlite-websub-001-subscriptions") { db in
            // One row a channel the server subscribes at the WebSub hub. Times are milliseconds
            // since 1970. `requested_at` is set while a subscribe request waits for the hub's
            // verification of intent; `lease_expires_at` is the end of the verified lease.
            try db.execute(sql: """
                CREATE TABLE websub_subscriptions (
                    channel_id TEXT PRIMARY KEY REFERENCES hub_channels(channel_id) ON DELETE CASCADE,
                    secret BLOB NOT NULL,
                    state TEXT NOT NULL,
                    requested_at INTEGER,
                    lease_seconds INTEGER,
                    lease_expires_at INTEGER,
                    failures INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX websub_subscriptions_by_next_attempt ON websub_subscriptions (next_attempt_at);
                """)
        }
        migrator.registerMigration("sqlite-youtube-001-enrichment-quota") { db in
            // What the YouTube Data API enrichment has looked up (times in milliseconds since
            // 1970), and the units it spent per UTC day.
            try db.execute(sql: """
                CREATE TABLE youtube_video_checks (
                    video_id TEXT PRIMARY KEY,
                    checked_at INTEGER NOT NULL,
                    attempts INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE youtube_channel_checks (
                    channel_id TEXT PRIMARY KEY REFERENCES hub_channels(channel_id) ON DELETE CASCADE,
                    checked_at INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE youtube_quota (
                    day TEXT PRIMARY KEY,
                    used INTEGER NOT NULL,
                    exhausted INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("sqlite-hub-002-videos-version") { db in
            // Every change to hub_videos, by any connection or process, counts up videos_version,
            // so an answer cached with the version it was read at is known to be current.
            try db.execute(sql: """
                INSERT OR IGNORE INTO hub_counters (name, value) VALUES ('videos_version', 0);
                CREATE TRIGGER hub_videos_inserted AFTER INSERT ON hub_videos BEGIN
                    UPDATE hub_counters SET value = value + 1 WHERE name = 'videos_version';
                END;
                CREATE TRIGGER hub_videos_updated AFTER UPDATE ON hub_videos BEGIN
                    UPDATE hub_counters SET value = value + 1 WHERE name = 'videos_version';
                END;
                CREATE TRIGGER hub_videos_deleted AFTER DELETE ON hub_videos BEGIN
                    UPDATE hub_counters SET value = value + 1 WHERE name = 'videos_version';
                END;
                """)
        }
        migrator.registerMigration("sqlite-websub-002-video-updates") { db in
            // When a push last said each video changed (ms since 1970), so an older push, replayed
            // or overtaken, changes nothing.
            try db.execute(sql: """
                CREATE TABLE websub_video_updates (video_id TEXT PRIMARY KEY, updated_at INTEGER NOT NULL) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("sqlite-hub-003-video-availability") { db in
            // Whether each video can be watched now (NULL: available) and when an upcoming one
            // starts (seconds since 1970), served as videos/query's additive fields.
            try db.execute(sql: """
                ALTER TABLE hub_videos ADD COLUMN availability TEXT;
                ALTER TABLE hub_videos ADD COLUMN scheduled_start REAL;
                """)
        }
        migrator.registerMigration("sqlite-hub-004-video-details") { db in
            // What the feed says of a video beyond its title, served as additional fields of
            // videos/query (see StoredVideoDetails for when they change a row's seq).
            try db.execute(sql: """
                ALTER TABLE hub_videos ADD COLUMN description TEXT;
                ALTER TABLE hub_videos ADD COLUMN thumbnail_url TEXT;
                ALTER TABLE hub_videos ADD COLUMN view_count INTEGER;
                ALTER TABLE hub_videos ADD COLUMN star_rating_count INTEGER;
                """)
        }
        migrator.registerMigration("sqlite-youtube-002-availability-rechecks") { db in
            // When the Data API is next asked whether each unsettled video can be watched (ms
            // since 1970; NULL: settled), and how often it was asked (see AvailabilityRecheck).
            try db.execute(sql: """
                CREATE TABLE youtube_availability_rechecks (video_id TEXT PRIMARY KEY, due_at INTEGER, checks INTEGER NOT NULL) WITHOUT ROWID;
                CREATE INDEX youtube_availability_rechecks_by_due ON youtube_availability_rechecks (due_at) WHERE due_at IS NOT NULL;
                """)
        }
        migrator.registerMigration("sqlite-hub-005-channel-catalog") { db in
            // Per channel, what the catalog service (yt-dlp's flat playlist or playlistItems.list)
            // did: whether its last uploads were backfilled (once for every client), the highest
            // seq of its videos asked about for lengths, and the failures in a row with when to
            // try again (ms since 1970) and the last reason.
            try db.execute(sql: """
                CREATE TABLE hub_channel_catalog (
                    channel_id TEXT PRIMARY KEY, backfilled INTEGER NOT NULL, checked_seq INTEGER NOT NULL,
                    failures INTEGER NOT NULL, retry_at INTEGER NOT NULL, last_error TEXT
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("sqlite-status-003-user-usage") { db in
            // What each user holds against their quota, kept by every write (no count per
            // request), and the quota the operator set for them (NULL: the server's default).
            try db.execute(sql: """
                CREATE TABLE status_usage (
                    user_id INTEGER PRIMARY KEY REFERENCES status_users(id) ON DELETE CASCADE,
                    zones INTEGER NOT NULL DEFAULT 0, records INTEGER NOT NULL DEFAULT 0, bytes INTEGER NOT NULL DEFAULT 0,
                    max_zones INTEGER, max_records INTEGER, max_bytes INTEGER
                );
                \(SQLiteMarkSyncTransaction.countUsageSQL);
                """)
        }
        migrator.registerMigration("sqlite-hub-006-channel-links") { db in
            // What POST /api/channels/resolve learned: the channel a link (by its case-folded key,
            // e.g. @veritasium) names, or NULL when YouTube said it does not exist, and when (ms
            // since 1970), so a household resolves a handle once.
            try db.execute(sql: """
                CREATE TABLE hub_channel_links (link_key TEXT PRIMARY KEY, channel_id TEXT, resolved_at INTEGER NOT NULL) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("sqlite-hub-007-backfilled-videos") { db in
            // Whether the catalog service's backfill brought the video (1) rather than a feed (0),
            // served as videos/query's additive `backfilled` so that clients do not count it new.
            try db.execute(sql: "ALTER TABLE hub_videos ADD COLUMN backfilled INTEGER NOT NULL DEFAULT 0")
        }
        return migrator
    }()

    /// The names the steps had before they started with `sqlite-`, and their names now.
    static let formerMigrationNames: [String: String] = [
        "hub-001-channels-videos": "sqlite-hub-001-channels-videos",
        "status-001-users-zones-records": "sqlite-status-001-users-zones-records",
        "001-drop-two-file-migration-table": "sqlite-layout-001-drop-two-file-migration-table",
        "status-002-database-change-history": "sqlite-status-002-database-change-history",
        "admin-001-user-created-last-seen": "sqlite-admin-001-user-created-last-seen",
        "admin-002-channel-fetch-record": "sqlite-admin-002-channel-fetch-record",
        "websub-001-subscriptions": "sqlite-websub-001-subscriptions",
        "youtube-001-enrichment-quota": "sqlite-youtube-001-enrichment-quota",
        "hub-002-videos-version": "sqlite-hub-002-videos-version",
        "websub-002-video-updates": "sqlite-websub-002-video-updates",
        "hub-003-video-availability": "sqlite-hub-003-video-availability",
        "hub-004-video-details": "sqlite-hub-004-video-details",
    ]

    /// Renames, in the migrator's table of `db`, the steps recorded under their former names, so
    /// that a file migrated before the renaming finds them done (and is not taken for the file of
    /// a newer server).
    static func renameFormerMigrations(_ db: Database) throws {
        guard try db.tableExists("grdb_migrations") else { return }
        for (former, name) in formerMigrationNames {
            try db.execute(sql: "UPDATE grdb_migrations SET identifier = ? WHERE identifier = ?", arguments: [name, former])
        }
    }
}
