import Foundation
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

    /// Re-sequences the changed videos under the `seq` counter's row lock, as ingestion does.
    func recordAvailability(_ states: [String: LiveStreamingState], now: Int64) async throws -> Int {
        guard !states.isEmpty else { return 0 }
        let logger = database.logger
        let date = Date(timeIntervalSince1970: TimeInterval(now) / 1000)
        return try await PostgresServerDatabase.storageErrors {
            try await database.transaction { connection in
                let ids = Array(states.keys)
                var stored: [String: (availability: String?, scheduledStart: Double?, checks: Int)] = [:]
                for try await (id, availability, scheduledStart, checks) in try await connection.query("""
                    SELECT v.video_id, v.availability, v.scheduled_start, coalesce(r.checks, 0) FROM hub_videos v
                    LEFT JOIN youtube_availability_rechecks r ON r.video_id = v.video_id
                    WHERE v.video_id = ANY(\(ids)::text[])
                    """, logger: logger
                ).decode((String, String?, Double?, Int).self) {
                    stored[id] = (availability, scheduledStart, checks)
                }
                let known = states.filter { stored[$0.key] != nil }.sorted { $0.key < $1.key }
                guard !known.isEmpty else { return 0 }
                let changed = known.filter { id, state in
                    stored[id].map { state.changes(availability: $0.availability, scheduledStart: $0.scheduledStart) } ?? false
                }
                if !changed.isEmpty {
                    let last = try await PostgresServerDatabase.single(Int64.self, connection.query(
                        "UPDATE hub_counters SET value = value + \(changed.count) WHERE name = 'last_seq' RETURNING value", logger: logger)) ?? 0
                    let first = last - Int64(changed.count) + 1
                    let seqs = (0..<Int64(changed.count)).map { first + $0 }
                    // Unknown values travel as '' and -1 (arrays of optionals do not), read back as NULL.
                    let availabilities = changed.map { $0.value.storedAvailability ?? "" }
                    let starts = changed.map { $0.value.storedScheduledStart ?? -1 }
                    try await connection.query("""
                        UPDATE hub_videos SET availability = nullif(u.availability, ''), scheduled_start = nullif(u.start, -1), seq = u.seq
                        FROM unnest(\(changed.map(\.key))::text[], \(availabilities)::text[], \(starts)::float8[], \(seqs)::bigint[])
                            AS u(video_id, availability, start, seq)
                        WHERE hub_videos.video_id = u.video_id
                        """, logger: logger)
                }
                let counts = known.map { Int64((stored[$0.key]?.checks ?? 0) + 1) }
                let dues = zip(known, counts).map { entry, count in
                    AvailabilityRecheck.next(after: entry.value, checks: Int(count), now: date).map { Int64($0.timeIntervalSince1970 * 1000) } ?? -1
                }
                try await connection.query("""
                    INSERT INTO youtube_availability_rechecks (video_id, due_at, checks)
                    SELECT u.video_id, nullif(u.due, -1), u.checks FROM unnest(\(known.map(\.key))::text[], \(dues)::bigint[], \(counts)::bigint[]) AS u(video_id, due, checks)
                    ON CONFLICT (video_id) DO UPDATE SET due_at = excluded.due_at, checks = excluded.checks
                    """, logger: logger)
                return changed.count
            }
        }
    }
}
