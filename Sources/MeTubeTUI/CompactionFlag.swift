import Synchronization

/// Whether a background compaction is running, so the loop starts at most one at a time.
final class CompactionFlag: Sendable {
    private let running = Mutex(false)

    /// Claims the flag; `false` when a compaction is already running.
    func begin() -> Bool {
        running.withLock { running in
            defer { running = true }
            return !running
        }
    }

    /// Releases the flag.
    func end() {
        running.withLock { $0 = false }
    }
}
