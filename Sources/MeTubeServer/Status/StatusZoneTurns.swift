import Synchronization

/// Lets the record writes of one zone run one after another within this process, in the order
/// they asked.
///
/// A `records/modify` works its operations out from a read snapshot and has the writer redo that
/// work when the zone changed in between; taking turns keeps a user's concurrent requests from
/// redoing each other's work on the single writer. Correctness does not rest on it: the writer
/// still checks the zone (another instance on the same PostgreSQL database takes no turn here).
final class StatusZoneTurns: Sendable {
    /// Per zone with a turn taken: the requests waiting for it, first in line first.
    private let waiting = Mutex<[StatusZoneKey: [CheckedContinuation<Void, Never>]]>([:])

    /// Runs `body` once every earlier caller for `zone` has finished.
    func inTurn<T>(for zone: StatusZoneKey, _ body: () async throws -> T) async throws -> T {
        await take(zone)
        defer { pass(zone) }
        return try await body()
    }

    private func take(_ zone: StatusZoneKey) async {
        let isFree = waiting.withLock { waiting in
            guard waiting[zone] == nil else { return false }
            waiting[zone] = []
            return true
        }
        guard !isFree else { return }
        await withCheckedContinuation { continuation in
            let isFreeNow = waiting.withLock { waiting in
                guard waiting[zone] != nil else {
                    waiting[zone] = []
                    return true
                }
                waiting[zone]?.append(continuation)
                return false
            }
            if isFreeNow { continuation.resume() }
        }
    }

    /// Hands the turn to the next caller waiting for `zone`, or frees it.
    private func pass(_ zone: StatusZoneKey) {
        let next = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
            guard let queue = waiting[zone], !queue.isEmpty else {
                waiting[zone] = nil
                return nil
            }
            waiting[zone] = Array(queue.dropFirst())
            return queue.first
        }
        next?.resume()
    }
}
