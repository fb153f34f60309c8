import Foundation

/// What can go wrong in the TUI: a terminal that cannot be used. (Bad settings are
/// `SettingsError`s.)
public enum TUIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The terminal could not be set up (no terminal, unknown `TERM`).
    case terminalUnavailable(String)

    /// A message for the user.
    public var description: String {
        switch self {
        case .terminalUnavailable(let reason): "cannot use the terminal: \(reason)"
        }
    }
}
