import MeTubeCore
import MeTubeFeeds
import Synchronization

/// How a run spreads its requests: over ``spread`` instead of all at once, until someone asks
/// for the rest at once (``hurry()``: the user's sync key during a spread run). A periodic run
/// gets one, so thousands of channels do not all reach the feed server at the same moment.
public final class SyncPace: Sendable {
    /// The time over which the run's requests are spread, from its start.
    public let spread: Duration

    private struct State {
        var hurried = false
        var nextSleeper = 0
        var sleepers: [Int: Task<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// A pace spreading a run's requests over `spread`.
    public init(spread: Duration) {
        self.spread = max(spread, .zero)
    }

    /// Lets every request of the run go now, those waiting for their turn and those to come.
    public func hurry() {
        let waiting = state.withLock { state in
            state.hurried = true
            defer { state.sleepers.removeAll() }
            return Array(state.sleepers.values)
        }
        for sleeper in waiting { sleeper.cancel() }
    }

    /// The moment request `index` of `count` starting at `start` (``FeedClock`` readings) is due:
    /// the requests evenly over ``spread``, the first at `start`.
    public func turn(_ index: Int, of count: Int, from start: Duration) -> Duration {
        guard count > 1, index > 0 else { return start }
        return start + spread / count * min(index, count)
    }

    /// Waits on `clock` until `offset`, or until the run is hurried or the task cancelled.
    public func wait(until offset: Duration, on clock: FeedClock) async {
        let sleeper = Task<Void, Never> { try? await clock.sleep(until: offset) }
        let id: Int? = state.withLock { state in
            guard !state.hurried else { return nil }
            defer { state.nextSleeper += 1 }
            state.sleepers[state.nextSleeper] = sleeper
            return state.nextSleeper
        }
        guard let id else {
            sleeper.cancel()
            return
        }
        await withTaskCancellationHandler {
            await sleeper.value
        } onCancel: {
            sleeper.cancel()
        }
        _ = state.withLock { $0.sleepers.removeValue(forKey: id) }
    }
}
