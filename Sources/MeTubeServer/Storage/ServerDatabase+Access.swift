import GRDB
import Metrics

extension ServerDatabase {
    /// Runs `body` in a read transaction on one of the pool's readers, recording how long it
    /// waited for one in ``PoolWaitMetrics/read``. A lock that stays taken past the busy timeout
    /// (5 s) throws ``ServerError/StorageFailure/unavailable(_:)``.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        let asked = ContinuousClock.now
        return try await Self.lockTimeouts {
            try await writer.read { db in
                PoolWaitMetrics.read.record(duration: ContinuousClock.now - asked)
                return try body(db)
            }
        }
    }

    /// Runs `body` in a write transaction on the pool's one writer, recording how long it waited
    /// for it in ``PoolWaitMetrics/write``. A lock that stays taken past the busy timeout (5 s)
    /// throws ``ServerError/StorageFailure/unavailable(_:)``.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        let asked = ContinuousClock.now
        return try await Self.lockTimeouts {
            try await writer.write { db in
                PoolWaitMetrics.write.record(duration: ContinuousClock.now - asked)
                return try body(db)
            }
        }
    }

    /// `body`, with SQLite's "busy" and "locked" (a lock not free within the busy timeout) as
    /// ``ServerError/StorageFailure/unavailable(_:)``.
    private static func lockTimeouts<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw StorageDeadline.unavailable("the database stayed locked")
        }
    }
}

/// How long database work waited for a connection of the pool, exported as the histogram
/// `metube_db_pool_wait_seconds{access="read"|"write"}` once ``ServerMetrics`` is bootstrapped.
enum PoolWaitMetrics {
    /// The metric's name.
    static let label = "metube_db_pool_wait_seconds"
    /// Its buckets: waits are microseconds when idle and grow with contention for the one writer.
    static let buckets: [Duration] = [
        .microseconds(100), .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500), .seconds(2), .seconds(5),
    ]
    /// Waits for a reader.
    static let read = Timer(label: label, dimensions: [("access", "read")])
    /// Waits for the writer.
    static let write = Timer(label: label, dimensions: [("access", "write")])
}
