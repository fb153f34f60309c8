import PostgresNIO

extension PostgresEnrichmentRepository {
    /// Claims by moving the due time: `FOR UPDATE SKIP LOCKED` gives each due row to one instance.
    func availabilityRechecksDue(now: Int64, limit: Int) async throws -> [String] {
        let claimUntil = now + Int64(AvailabilityRecheck.claim * 1000)
        return try await database.query("""
            UPDATE youtube_availability_rechecks SET due_at = \(claimUntil) WHERE video_id IN (
                SELECT r.video_id FROM youtube_availability_rechecks r JOIN hub_videos v ON v.video_id = r.video_id
                WHERE r.due_at <= \(now) ORDER BY r.due_at LIMIT \(limit)
                FOR UPDATE OF r SKIP LOCKED)
            RETURNING video_id
            """).map { try $0.decode(String.self) }
    }

    /// Re-sequences the changed videos under the `seq` counter's row lock, taken before the stored
    /// states are read (``FreshSeqs``), as ingestion does.
    func recordAvailability(_ states: [String: LiveStreamingState], now: Int64) async throws -> Int {
        guard !states.isEmpty else { return 0 }
        let logger = database.logger
        return try await PostgresServerDatabase.storageErrors {
            try await database.transaction { connection in
                try await FreshSeqs.lock(connection, logger)
                var stored: [String: AvailabilityCheckPlan.Stored] = [:]
                for try await (id, availability, scheduledStart, checks) in try await connection.query("""
                    SELECT v.video_id, v.availability, v.scheduled_start, coalesce(r.checks, 0) FROM hub_videos v
                    LEFT JOIN youtube_availability_rechecks r ON r.video_id = v.video_id
                    WHERE v.video_id = ANY(\(Array(states.keys))::text[])
                    """, logger: logger
                ).decode((String, String?, Double?, Int).self) {
                    stored[id] = AvailabilityCheckPlan.Stored(availability: availability, scheduledStart: scheduledStart, checks: checks)
                }
                let plan = AvailabilityCheckPlan(states, stored: stored, now: now)
                guard !plan.rechecks.isEmpty else { return 0 }
                let changes = try await FreshSeqs.take(for: plan.resequenced, connection, logger)
                if !changes.isEmpty {
                    // Unknown values travel as '' and -1 (arrays of optionals do not), read back as NULL.
                    let availabilities = changes.map { $0.change.state.storedAvailability ?? "" }
                    let starts = changes.map { $0.change.state.storedScheduledStart ?? -1 }
                    try await connection.query("""
                        UPDATE hub_videos SET availability = nullif(u.availability, ''), scheduled_start = nullif(u.start, -1), seq = u.seq
                        FROM unnest(\(changes.map(\.change.videoID))::text[], \(availabilities)::text[], \(starts)::float8[], \(changes.map(\.seq))::bigint[])
                            AS u(video_id, availability, start, seq)
                        WHERE hub_videos.video_id = u.video_id
                        """, logger: logger)
                }
                let rechecks = plan.rechecks
                try await connection.query("""
                    INSERT INTO youtube_availability_rechecks (video_id, due_at, checks)
                    SELECT u.video_id, nullif(u.due, -1), u.checks
                    FROM unnest(\(rechecks.map(\.videoID))::text[], \(rechecks.map { $0.dueAt ?? -1 })::bigint[], \(rechecks.map { Int64($0.checks) })::bigint[])
                        AS u(video_id, due, checks)
                    ON CONFLICT (video_id) DO UPDATE SET due_at = excluded.due_at, checks = excluded.checks
                    """, logger: logger)
                return changes.count
            }
        }
    }
}
