import GRDB
import Synchronization

/// Runs concurrent write transactions together: each in a savepoint of one SQLite transaction,
/// committed (and, with `synchronous=FULL`, made durable by one sync of the WAL) before any of
/// them is answered.
///
/// A body that throws rolls back its own savepoint only and gets its error; the others commit.
/// When the group's commit fails, every body of the group gets that error, so nothing is
/// answered as written unless it is on disk. While one group commits, the next gathers, up to
/// `maxGroupSize` bodies.
final class GroupCommit: Sendable {
    /// One queued body: `run` performs it inside the group's transaction and returns how to answer
    /// its caller once the group committed; `fail` answers it with the group's error instead.
    private struct Job: Sendable {
        let run: @Sendable (Database) -> @Sendable () -> Void
        let fail: @Sendable (any Error) -> Void
    }

    private struct Queue {
        var jobs: [Job] = []
        var draining = false
    }

    /// The most bodies committed together.
    static let maxGroupSize = 32

    private let database: ServerDatabase
    private let queue = Mutex(Queue())

    /// Groups the writes to `database`.
    init(database: ServerDatabase) {
        self.database = database
    }

    /// Runs `body` in a savepoint of the next group's transaction and returns its result once the
    /// group is committed. A body that has not started within ``StorageDeadline/writeTurn`` (cut
    /// to the request's end) never runs: its caller gets ``StorageDeadline/unavailable(_:)``
    /// at the deadline, so a writer stuck on a long transaction holds no request for ever.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let place = Place()
        let timeout = StorageDeadline.limit(StorageDeadline.writeTurn)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let timer = Task {
                try? await Task.sleep(for: timeout)
                guard !Task.isCancelled, place.giveUp() else { return }
                continuation.resume(throwing: StorageDeadline.unavailable("the database writer stayed busy for \(timeout)"))
            }
            enqueue(Job(
                run: { db in
                    guard place.take() else { return {} }
                    timer.cancel()
                    let result: Result<T, any Error>
                    do {
                        var value: T?
                        try db.inSavepoint {
                            value = try body(db)
                            return .commit
                        }
                        guard let value else { throw ServerError.storage(.failed("a grouped transaction returned nothing")) }
                        result = .success(value)
                    } catch {
                        result = .failure(error)
                    }
                    return { continuation.resume(with: result) }
                },
                fail: { error in
                    guard place.take() else { return }
                    timer.cancel()
                    continuation.resume(throwing: error)
                }))
        }
    }

    private func enqueue(_ job: Job) {
        let startsDraining = queue.withLock { queue in
            queue.jobs.append(job)
            guard !queue.draining else { return false }
            queue.draining = true
            return true
        }
        if startsDraining { Task { await drain() } }
    }

    /// Commits groups until the queue is empty.
    private func drain() async {
        while true {
            let group = queue.withLock { queue in
                let group = Array(queue.jobs.prefix(Self.maxGroupSize))
                queue.jobs.removeFirst(group.count)
                if group.isEmpty { queue.draining = false }
                return group
            }
            guard !group.isEmpty else { return }
            do {
                let answers = try await database.write { db in
                    try group.map { job in
                        // A failure that ended SQLite's transaction (a full disk, an I/O error)
                        // fails the whole group rather than letting the rest run outside it.
                        guard db.isInsideTransaction else { throw ServerError.storage(.failed("the grouped transaction ended early")) }
                        return job.run(db)
                    }
                }
                for answer in answers { answer() }
            } catch {
                for job in group { job.fail(error) }
            }
        }
    }
}

/// One caller's place in a ``GroupCommit``: the group takes it (to run or fail its body) or its
/// deadline gives it up, whichever comes first; the other then leaves the caller alone.
private final class Place: Sendable {
    private enum State { case waiting, taken, givenUp }
    private let state = Mutex(State.waiting)

    /// Whether the group may answer the caller: the place was not given up.
    func take() -> Bool {
        state.withLock { state in
            guard state != .givenUp else { return false }
            state = .taken
            return true
        }
    }

    /// Whether the deadline may answer the caller: the group has not taken the place.
    func giveUp() -> Bool {
        state.withLock { state in
            guard state == .waiting else { return false }
            state = .givenUp
            return true
        }
    }
}
