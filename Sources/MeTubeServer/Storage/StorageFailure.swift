extension ServerError {
    /// How the storage failed, whichever the backend: what repositories, migrations and the
    /// administration throw as ``ServerError/storage(_:)``. Only ``unavailable(_:)`` is told to a
    /// client (503, see ``ServerError/answer``); the administration commands give ``missing(path:)``
    /// and ``busy(_:)`` exit codes of their own.
    public enum StorageFailure: Sendable, Equatable, CustomStringConvertible {
        /// There is no database file at `path` (an administration command was pointed at nothing).
        case missing(path: String)
        /// Another process holds the database: a running server holds its lock, or SQLite's lock
        /// stayed taken past an administration command's wait.
        case busy(String)
        /// The database did not answer within its deadline (``StorageDeadline``), or cannot be
        /// reached now; the reason names no host or secret, so a client may be told it.
        case unavailable(String)
        /// Any other failure; the detail is logged, never sent.
        case failed(String)

        /// A one-line description for logs and the command line.
        public var description: String {
            switch self {
            case .missing(let path): "no database at \(path)"
            case .busy(let detail): "database busy: \(detail)"
            case .unavailable(let reason): "unavailable: \(reason)"
            case .failed(let detail): "storage failure: \(detail)"
            }
        }
    }
}
