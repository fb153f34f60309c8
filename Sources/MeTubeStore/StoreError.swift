import Foundation

/// Errors raised by the store.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another process held the store's lock for longer than the timeout.
    case lockTimeout(path: String, seconds: Double)
    /// The store was written by a newer metube; it is open for reading only.
    case readOnly(reason: String)
    /// A file could not be written; the previous state is intact.
    case writeFailed(path: String, reason: String)
    /// A file could not be read.
    case readFailed(path: String, reason: String)
    /// A file's content could not be understood.
    case corrupt(path: String, reason: String)
    /// The video is not in the library.
    case unknownVideo(String)
    /// A backup file was rejected before anything was replaced.
    case invalidBackup(reason: String)

    public var description: String {
        switch self {
        case let .lockTimeout(path, seconds):
            "the store is busy: another metube process held \(path) for more than \(seconds.formatted()) s; try again"
        case let .readOnly(reason): "the store is read-only: \(reason)"
        case let .writeFailed(path, reason): "could not write \(path): \(reason) (nothing was changed)"
        case let .readFailed(path, reason): "could not read \(path): \(reason)"
        case let .corrupt(path, reason): "\(path) is damaged: \(reason)"
        case let .unknownVideo(id): "no video with id \(id) in the library"
        case let .invalidBackup(reason): "not a valid metube backup: \(reason) (nothing was changed)"
        }
    }
}

/// The text of the current `errno`.
func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
