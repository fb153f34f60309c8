import GRDB

extension SQLiteEnrichmentRepository {
    func availabilityRechecksDue(now: Int64, limit: Int) async throws -> [String] {
        let claimUntil = now + Int64(AvailabilityRecheck.claim * 1000)
        return try await database.write { db in
            try String.fetchAll(db, sql: """
                UPDATE youtube_availability_rechecks SET due_at = ?1 WHERE video_id IN (
                    SELECT r.video_id FROM youtube_availability_rechecks r JOIN hub_videos v ON v.video_id = r.video_id
                    WHERE r.due_at <= ?2 ORDER BY r.due_at LIMIT ?3)
                RETURNING video_id
                """, arguments: [claimUntil, now, limit])
        }
    }

    func recordAvailability(_ states: [String: LiveStreamingState], now: Int64) async throws -> Int {
        try await database.write { db in
            let read = try db.cachedStatement(sql: """
                SELECT v.availability, v.scheduled_start, coalesce(r.checks, 0) AS checks FROM hub_videos v
                LEFT JOIN youtube_availability_rechecks r ON r.video_id = v.video_id
                WHERE v.video_id = ?
                """)
            var stored: [String: AvailabilityCheckPlan.Stored] = [:]
            for id in states.keys {
                guard let row = try Row.fetchOne(read, arguments: [id]) else { continue }
                stored[id] = AvailabilityCheckPlan.Stored(availability: row["availability"], scheduledStart: row["scheduled_start"], checks: row["checks"])
            }
            let plan = AvailabilityCheckPlan(states, stored: stored, now: now)
            let update = try db.cachedStatement(sql: "UPDATE hub_videos SET availability = ?, scheduled_start = ?, seq = ? WHERE video_id = ?")
            for (seq, change) in try FreshSeqs.take(for: plan.resequenced, db) {
                try update.execute(arguments: [change.state.storedAvailability, change.state.storedScheduledStart, seq, change.videoID])
            }
            let schedule = try db.cachedStatement(sql: """
                INSERT INTO youtube_availability_rechecks (video_id, due_at, checks) VALUES (?, ?, ?)
                ON CONFLICT (video_id) DO UPDATE SET due_at = excluded.due_at, checks = excluded.checks
                """)
            for recheck in plan.rechecks {
                try schedule.execute(arguments: [recheck.videoID, recheck.dueAt, recheck.checks])
            }
            return plan.resequenced.count
        }
    }
}
