import Foundation
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
        let date = Date(timeIntervalSince1970: TimeInterval(now) / 1000)
        return try await database.write { db in
            let stored = try db.cachedStatement(sql: "SELECT availability, scheduled_start FROM hub_videos WHERE video_id = ?")
            let checks = try db.cachedStatement(sql: "SELECT checks FROM youtube_availability_rechecks WHERE video_id = ?")
            let schedule = try db.cachedStatement(sql: """
                INSERT INTO youtube_availability_rechecks (video_id, due_at, checks) VALUES (?, ?, ?)
                ON CONFLICT (video_id) DO UPDATE SET due_at = excluded.due_at, checks = excluded.checks
                """)
            var changed = 0
            for (id, state) in states.sorted(by: { $0.key < $1.key }) {
                guard let row = try Row.fetchOne(stored, arguments: [id]) else { continue }
                if state.changes(availability: row[0], scheduledStart: row[1]) {
                    let seq = try Int64.fetchOne(db, sql: "UPDATE hub_counters SET value = value + 1 WHERE name = 'last_seq' RETURNING value") ?? 0
                    try db.execute(
                        sql: "UPDATE hub_videos SET availability = ?, scheduled_start = ?, seq = ? WHERE video_id = ?",
                        arguments: [state.storedAvailability, state.storedScheduledStart, seq, id])
                    changed += 1
                }
                let count = (try Int.fetchOne(checks, arguments: [id]) ?? 0) + 1
                let due = AvailabilityRecheck.next(after: state, checks: count, now: date).map { Int64($0.timeIntervalSince1970 * 1000) }
                try schedule.execute(arguments: [id, due, count])
            }
            return changed
        }
    }
}
