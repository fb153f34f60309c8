/// What can go wrong while driving a program through ``TmuxSession``.
public enum TmuxError: Error, Sendable, CustomStringConvertible {
    /// A tmux command failed.
    case commandFailed(command: String, message: String)
    /// ``TmuxSession/waitFor(timeout:_:)`` never saw what it waited for; `screen` is what it saw last.
    case screenTimedOut(screen: String)

    /// A message for the test log.
    public var description: String {
        switch self {
        case .commandFailed(let command, let message): "tmux \(command) failed: \(message)"
        case .screenTimedOut(let screen): "timed out waiting for the screen; it showed:\n\(screen)"
        }
    }
}
