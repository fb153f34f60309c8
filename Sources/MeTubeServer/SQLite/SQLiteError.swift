import CSQLite

/// An error reported by SQLite or by the wrapper around it.
///
/// `code` is SQLite's primary or extended result code (or `SQLITE_MISUSE` for wrapper misuse),
/// `message` is SQLite's own explanation and `context` says what the wrapper was doing.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite's result code, e.g. `SQLITE_BUSY` or `SQLITE_CONSTRAINT_UNIQUE`.
    public let code: Int32
    /// SQLite's error message for the failing call.
    public let message: String
    /// What the wrapper was doing when the error happened, e.g. the SQL being prepared.
    public let context: String

    /// Creates an error from its parts; the result code, SQLite's message and the wrapper's context.
    public init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// True when the failure is a constraint violation (unique, foreign key, check, not null).
    public var isConstraintViolation: Bool { code & 0xFF == SQLITE_CONSTRAINT }

    /// True when the database was locked by another connection for longer than the busy timeout.
    public var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }

    /// A one-line description: context, message and code.
    public var description: String { "SQLite error \(code) while \(context): \(message)" }
}
