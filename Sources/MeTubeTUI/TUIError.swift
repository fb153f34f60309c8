import Foundation

/// What can go wrong in the TUI: a bad config file, a terminal that cannot be used.
public enum TUIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The config file could not be read.
    case configUnreadable(path: String, reason: String)
    /// A setting of the config file is not valid; `setting` is `section.key`.
    case configInvalid(setting: String, message: String)
    /// The terminal could not be set up (no terminal, unknown `TERM`).
    case terminalUnavailable(String)

    /// A message for the user.
    public var description: String {
        switch self {
        case .configUnreadable(let path, let reason): "cannot read config file \(path): \(reason)"
        case .configInvalid(let setting, let message): "config file: \(setting): \(message)"
        case .terminalUnavailable(let reason): "cannot use the terminal: \(reason)"
        }
    }
}
