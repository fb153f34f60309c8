import MeTubeSync
import Synchronization

/// A video source for fault injection: each sync waits until the test finishes it with an
/// outcome (or it is cancelled), and the source records how many syncs were ever in progress at
/// once.
final class GatedVideoSource: VideoSource {
    /// How a gated sync ends.
    enum Outcome: Sendable {
        case success
        case failure(SyncError)
        case cancelled
    }

    private struct Call {
        let id: Int
        var continuation: CheckedContinuation<Outcome, Never>?
    }

    private struct State {
        var started = 0
        var active = 0
        var mostActive = 0
        var calls: [Call] = []
        var cancelledBeforeWaiting: Set<Int> = []
        var probeAnswers = true
    }

    private let state = Mutex(State())

    var kind: SyncSource { .hub }

    /// How many syncs were started.
    var started: Int { state.withLock { $0.started } }
    /// The most syncs that were in progress at the same time.
    var mostActive: Int { state.withLock { $0.mostActive } }
    /// How many syncs are waiting for an outcome.
    var waiting: Int { state.withLock { $0.calls.filter { $0.continuation != nil }.count } }
    /// Whether probes pass.
    var probeAnswers: Bool {
        get { state.withLock { $0.probeAnswers } }
        set { state.withLock { $0.probeAnswers = newValue } }
    }

    func sync(progress: @escaping @Sendable (String) -> Void) async throws(SyncError) -> SyncReport {
        let id = state.withLock { state in
            state.started += 1
            state.active += 1
            state.mostActive = max(state.mostActive, state.active)
            state.calls.append(Call(id: state.started))
            return state.started
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let cancelled = state.withLock { state in
                    if state.cancelledBeforeWaiting.remove(id) != nil { return true }
                    if let index = state.calls.firstIndex(where: { $0.id == id }) { state.calls[index].continuation = continuation }
                    return false
                }
                if cancelled { continuation.resume(returning: .cancelled) }
            }
        } onCancel: {
            resume(id, with: .cancelled)
        }
        state.withLock { state in
            state.active -= 1
            state.calls.removeAll { $0.id == id }
        }
        switch outcome {
        case .success:
            var report = SyncReport(source: .hub)
            report.requests = 1
            return report
        case .failure(let error): throw error
        case .cancelled: throw .cancelled
        }
    }

    func probe() async throws(SyncError) {
        if !probeAnswers { throw .connection("injected") }
    }

    /// Ends the oldest waiting sync with `outcome`; false when none waits.
    @discardableResult
    func finishOne(_ outcome: Outcome) -> Bool {
        guard let id = state.withLock({ $0.calls.first { $0.continuation != nil }?.id }) else { return false }
        resume(id, with: outcome)
        return true
    }

    private func resume(_ id: Int, with outcome: Outcome) {
        let continuation = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard let index = state.calls.firstIndex(where: { $0.id == id }) else { return nil }
            guard let continuation = state.calls[index].continuation else {
                state.cancelledBeforeWaiting.insert(id)
                return nil
            }
            state.calls[index].continuation = nil
            return continuation
        }
        continuation?.resume(returning: outcome)
    }
}
