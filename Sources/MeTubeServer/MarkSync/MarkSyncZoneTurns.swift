import Synchronization

/// Lets the record writes of one zone run one after another within this process, in the order
/// they asked.
///
/// A `records/modify` works its operations out from a read snapshot and has the writer redo that
/// work when the zone changed in between; taking turns keeps a user's concurrent requests from
/// redoing each other's work on the single writer. Correctness does not rest on it: the writer
/// still checks the zone (another instance on the same PostgreSQL database takes no turn here).
///
/// A caller waits for its turn at most `deadline` (and never past its request's end, see
/// ``StorageDeadline``), then fails with
/// ``ServerError/StorageFailure/unavailable(_:)`` and leaves the line: a turn held by a request stuck
/// on the database cannot hold the zone's other requests for ever.
final class MarkSyncZoneTurns: Sendable {
    /// One caller waiting for a zone's turn.
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// Per zone with a turn taken: the requests waiting for it, first in line first.
    private let waiting = Mutex<[MarkSyncZoneKey: [Waiter]]>([:])
    private let nextWaiterID = Atomic<Int>(0)
    private let deadline: Duration

    /// Turns whose callers wait at most `deadline` for theirs.
    init(deadline: Duration = StorageDeadline.zoneTurn) {
        self.deadline = deadline
    }

    /// Runs `body` once every earlier caller for `zone` has finished; throws
    /// ``ServerError/StorageFailure/unavailable(_:)`` when that takes longer than the deadline.
    func inTurn<T>(for zone: MarkSyncZoneKey, _ body: () async throws -> T) async throws -> T {
        try await take(zone)
        defer { pass(zone) }
        return try await body()
    }

    private func take(_ zone: MarkSyncZoneKey) async throws {
        let isFree = waiting.withLock { waiting in
            guard waiting[zone] == nil else { return false }
            waiting[zone] = []
            return true
        }
        guard !isFree else { return }
        let id = nextWaiterID.add(1, ordering: .relaxed).newValue
        let deadline = StorageDeadline.limit(deadline)
        let timer = Task {
            try? await Task.sleep(for: deadline)
            guard !Task.isCancelled else { return }
            giveUp(waiter: id, of: zone, error: StorageDeadline.unavailable("zone '\(zone.zoneName)' stayed busy for \(deadline)"))
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let isFreeNow = waiting.withLock { waiting in
                    guard waiting[zone] != nil else {
                        waiting[zone] = []
                        return true
                    }
                    waiting[zone]?.append(Waiter(id: id, continuation: continuation))
                    return false
                }
                if isFreeNow { continuation.resume() }
            }
        } onCancel: {
            giveUp(waiter: id, of: zone, error: CancellationError())
        }
    }

    /// Takes the waiter `id` out of `zone`'s line, if it is still in it, and fails it with `error`.
    private func giveUp(waiter id: Int, of zone: MarkSyncZoneKey, error: any Error) {
        let removed = waiting.withLock { waiting -> Waiter? in
            guard let index = waiting[zone]?.firstIndex(where: { $0.id == id }) else { return nil }
            return waiting[zone]?.remove(at: index)
        }
        removed?.continuation.resume(throwing: error)
    }

    /// Hands the turn to the next caller waiting for `zone`, or frees it.
    private func pass(_ zone: MarkSyncZoneKey) {
        let next = waiting.withLock { waiting -> Waiter? in
            guard let queue = waiting[zone], !queue.isEmpty else {
                waiting[zone] = nil
                return nil
            }
            waiting[zone] = Array(queue.dropFirst())
            return queue.first
        }
        next?.continuation.resume()
    }
}
