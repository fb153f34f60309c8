import Synchronization

/// Events from other threads (sync tasks, finished players) waiting for the event loop, which
/// drains them between keys.
final class EventInbox: Sendable {
    private let events = Mutex<[ModelEvent]>([])

    /// Queues `event` for the loop.
    func post(_ event: ModelEvent) {
        events.withLock { $0.append(event) }
    }

    /// Takes every queued event, oldest first.
    func drain() -> [ModelEvent] {
        events.withLock { queued in
            defer { queued.removeAll(keepingCapacity: true) }
            return queued
        }
    }
}
