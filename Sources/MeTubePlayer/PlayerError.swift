/// Why a tracked player could not be started or followed; the message says what to do.
public enum PlayerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command could not be started at all.
    case cannotStart(command: String, reason: String)
    /// The player ended before its IPC socket appeared (a bad option, a missing file, not mpv).
    case exitedAtOnce(command: String, status: Int32)
    /// The player kept running but never opened its IPC socket; it was stopped.
    case socketNeverAppeared(path: String, seconds: Double)
    /// The socket appeared but could not be connected to.
    case cannotConnect(path: String, reason: String)
    /// The socket path is longer than a Unix socket address can hold.
    case socketPathTooLong(path: String)
    /// The store is still opening (a large library), so the position could not be kept yet.
    case storeStillOpening

    public var description: String {
        switch self {
        case let .cannotStart(command, reason): "cannot start the player (\(command)): \(reason)"
        case let .exitedAtOnce(command, status):
            "the player exited at once with status \(status) (\(command)); check [tui] open and that mpv plays the video"
        case let .socketNeverAppeared(path, seconds):
            "the player opened no IPC socket at \(path) within \(Int(seconds)) s and was stopped; is [tui] open an mpv command?"
        case let .cannotConnect(path, reason): "cannot connect to the player's IPC socket \(path): \(reason)"
        case let .socketPathTooLong(path): "the IPC socket path \(path) is too long; set XDG_RUNTIME_DIR to a shorter directory"
        case .storeStillOpening: "the library is still loading; open the video again in a moment"
        }
    }
}
