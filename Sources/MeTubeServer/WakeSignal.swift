import Synchronization

/// Wakes one background loop early: the loop waits with ``wait(timeout:)``, others call
/// ``signal()`` when there is work for it. A signal given while the loop is busy is kept (one) and
/// ends its next wait at once, so no signal is lost between two waits.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Ends the current wait, or the next one when no loop waits now.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when signalled (at once when a signal is pending), after `timeout`, or when the
    /// task is cancelled. One waiter at a time.
    func wait(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.nextSignal() }
            await group.next()
            group.cancelAll()
        }
    }

    private func nextSignal() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Cancellation is flagged before the handler below runs, and both sides hold the
                // lock, so the continuation is resumed exactly once whichever comes first.
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    if Task.isCancelled { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
