import Synchronization

/// Limits how many new channels one client address may register per hour.
///
/// Registration needs no account, so without a limit one client can grow the channel table (and
/// the feed polling) without bound. Each address gets a window of one hour from its first
/// registration; a request is refused with a wait while the address has used up its channels
/// in the window. Re-registering known channels costs nothing. The limiter remembers at most
/// `maxClients` addresses, dropping expired windows first and then the oldest.
final class RegistrationLimiter: Sendable {
    private struct Window {
        var start: ContinuousClock.Instant
        var inserted: Int
    }

    /// The window length.
    static let window = Duration.seconds(3600)

    private let channelsPerHour: Int?
    private let maxClients: Int
    private let windows = Mutex<[String: Window]>([:])

    /// Creates a limiter allowing `channelsPerHour` new channels per address (none: unlimited).
    init(channelsPerHour: Int?, maxClients: Int = 10_000) {
        self.channelsPerHour = channelsPerHour
        self.maxClients = maxClients
    }

    /// Nil when `client` may register now, else the whole seconds until it may.
    func wait(for client: String) -> Int? {
        guard let channelsPerHour else { return nil }
        let now = ContinuousClock.now
        return windows.withLock { windows in
            guard let window = windows[client], now - window.start < Self.window, window.inserted >= channelsPerHour else { return nil }
            let remaining = Self.window - (now - window.start)
            return max(1, Int(remaining.components.seconds) + 1)
        }
    }

    /// Counts `inserted` new channels against `client`.
    func record(_ inserted: Int, for client: String) {
        guard channelsPerHour != nil, inserted > 0 else { return }
        let now = ContinuousClock.now
        windows.withLock { windows in
            if var window = windows[client], now - window.start < Self.window {
                window.inserted += inserted
                windows[client] = window
                return
            }
            if windows.count >= maxClients {
                windows = windows.filter { now - $0.value.start < Self.window }
                if windows.count >= maxClients, let oldest = windows.min(by: { $0.value.start < $1.value.start })?.key {
                    windows[oldest] = nil
                }
            }
            windows[client] = Window(start: now, inserted: inserted)
        }
    }
}
