import Foundation

/// What can go wrong in the TUI: a terminal that cannot be used. (Bad settings are
/// `SettingsError`s.)
public enum TUIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The terminal could not be set up (no terminal, unknown `TERM`).
    case terminalUnavailable(String)
    /// A tmux command run by ``TmuxSession`` failed.
    case tmuxFailed(command: String, message: String)
    /// ``TmuxSession/waitFor(timeout:_:)`` never saw what it waited for; `screen` is what it saw last.
    case screenTimedOut(screen: String)

    /// A message for the user.
    public var description: String {
        switch self {
        case .terminalUnavailable(let reason): "cannot use the terminal: \(reason)"
        case .tmuxFailed(let command, let message): "tmux \(command) failed: \(message)"
        case .screenTimedOut(let screen): "timed out waiting for the screen; it showed:\n\(screen)"
        }
    }
}
