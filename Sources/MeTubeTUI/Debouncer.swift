/// Runs an action once, `delay` after the last of a burst of pokes: how a sync follows marks
/// without one sync per key press.
public actor Debouncer {
    private let delay: Duration
    private let action: @Sendable () async -> Void
    private var pending: Task<Void, Never>?

    /// A debouncer that runs `action` `delay` after the last ``poke()``.
    public init(delay: Duration, action: @escaping @Sendable () async -> Void) {
        self.delay = delay
        self.action = action
    }

    /// Restarts the wait; the action runs when no poke follows within the delay.
    public func poke() {
        pending?.cancel()
        pending = Task { [delay, action] in
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
            await action()
        }
    }
}
