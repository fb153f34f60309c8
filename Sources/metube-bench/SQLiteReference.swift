import Foundation
import GRDB
import Synchronization

/// The reference the mark-sync server's figures are held against: the same record writes and page
/// reads done by a minimal GRDB program in this process, on a file of its own with the server's
/// durability (WAL, `synchronous=FULL`), from as many concurrent clients as the server's load
/// has connections, for the same time. It has no HTTP, no JSON parsing, no authentication and no
/// change tags, so it is what the disk and SQLite allow on this machine in this run: the server's
/// throughput divided by it survives a change of machine, which absolute requests per second do
/// not.
struct SQLiteReference {
    /// Requests a second, the 99th percentile of one request's time and the process's CPU time a
    /// request, in milliseconds.
    struct Rate {
        var perSecond: Double
        var p99Millis: Double
        var cpuMillisPerOperation: Double
    }

    private let pool: DatabasePool

    /// Makes the reference database in `folder`, with one zone per client holding `seedRounds`
    /// writes of `recordsPerWrite` records, as the server's load is seeded.
    init(folder: URL, clients: Int, recordsPerWrite: Int, seedRounds: Int) throws {
        pool = try DatabasePool(path: folder.appendingPathComponent("reference.sqlite").path)
        // After opening, as `ServerDatabase` does: the pool sets its writer to synchronous=NORMAL
        // when it turns WAL on, after anything `prepareDatabase` set.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            guard try Int.fetchOne(db, sql: "PRAGMA synchronous") == 2 else { throw BenchFailure("the reference's writer is not at synchronous=FULL") }
        }
        try pool.write { db in
            try db.execute(sql: """
                CREATE TABLE records (
                    zone INTEGER NOT NULL, name TEXT NOT NULL, fields BLOB NOT NULL, sequence INTEGER NOT NULL,
                    PRIMARY KEY (zone, name)
                ) WITHOUT ROWID;
                CREATE INDEX records_by_sequence ON records (zone, sequence);
                """)
        }
        for zone in 0..<clients {
            for round in 1...seedRounds { try write(zone: zone, round: round, records: recordsPerWrite) }
        }
    }

    /// Writes `records` records into `zone` in one transaction, as one `records/modify` does.
    func write(zone: Int, round: Int, records: Int) throws {
        try pool.write { db in
            let next = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(sequence), 0) + 1 FROM records WHERE zone = ?", arguments: [zone]) ?? 1
            let statement = try db.cachedStatement(sql: """
                INSERT INTO records (zone, name, fields, sequence) VALUES (?, ?, ?, ?)
                ON CONFLICT (zone, name) DO UPDATE SET fields = excluded.fields, sequence = excluded.sequence
                """)
            for index in 0..<records {
                let fields = #"{"videoId":{"value":"video-\#(round)-\#(index)"},"status":{"value":"watched"},"lastModified":{"value":1765650000000},"hlc":{"value":"1765650000000-\#(index)"},"deviceId":{"value":"bench"}}"#
                try statement.execute(arguments: [zone, "video-\(round)-\(index)", Data(fields.utf8), next + index])
            }
        }
    }

    /// Reads the first `records` records of `zone` by sequence, as one `changes/zone` page does.
    func readPage(zone: Int, records: Int) throws -> Int {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT name, fields, sequence FROM records WHERE zone = ? ORDER BY sequence LIMIT ?", arguments: [zone, records]).count
        }
    }

    /// Runs `operation` from `clients` concurrent clients, each on a thread of its own, for
    /// `seconds`, and returns the rate, p99 and CPU time over all of them (the process's CPU time:
    /// nothing else in it runs meanwhile).
    static func rate(clients: Int, seconds: Double, _ operation: @escaping @Sendable (_ client: Int, _ round: Int) throws -> Void) throws -> Rate {
        let cpuBefore = processCPUSeconds()
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let results = Mutex<(samples: [Double], failure: (any Error)?)>(([], nil))
        let done = DispatchGroup()
        for client in 0..<clients {
            done.enter()
            Thread {
                var samples: [Double] = []
                var round = 0
                do {
                    while ContinuousClock.now < deadline {
                        round += 1
                        samples.append(try Measure.millis { try operation(client, round) })
                    }
                } catch {
                    results.withLock { $0.failure = error }
                }
                results.withLock { $0.samples += samples }
                done.leave()
            }.start()
        }
        done.wait()
        let cpuSeconds = processCPUSeconds() - cpuBefore
        let (samples, failure) = results.withLock { ($0.samples, $0.failure) }
        if let failure { throw failure }
        return Rate(
            perSecond: Double(samples.count) / seconds, p99Millis: Measure.percentile(samples, 99),
            cpuMillisPerOperation: cpuSeconds * 1000 / Double(max(samples.count, 1)))
    }

    /// The CPU time this process has used, in seconds.
    private static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
