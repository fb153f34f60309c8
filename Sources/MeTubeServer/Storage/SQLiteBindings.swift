import Foundation
import GRDB
import GRDBSQLite

/// Values bound in turn to the placeholders of a GRDB statement through SQLite's own calls, for
/// the statements with hundreds of placeholders on the server's busiest path (a 200-record
/// `records/modify` binds about 1,800 values between its lookup and its write).
///
/// GRDB's `StatementArguments` makes a `DatabaseValue` of each value through generic code of its
/// module, which is not specialized for the caller: under load that was 8 % of the server's CPU
/// time. The bindings made here are the ones GRDB makes (SQLite copies text and blobs at once),
/// and GRDB still runs the statement, with its own transaction bookkeeping.
struct SQLiteBindings {
    private let statement: Statement
    private var next: CInt = 1

    /// Starts at the first placeholder of `statement`, its earlier bindings cleared.
    init(_ statement: Statement) {
        // Empty arguments: GRDB resets the statement, clears its bindings and takes the ones bound
        // here as they are. (A statement that failed leaves GRDB's cache, so the reset cannot fail.)
        statement.setUncheckedArguments(StatementArguments())
        self.statement = statement
    }

    /// Binds an integer to the next placeholder.
    mutating func bind(_ value: Int64) throws {
        try advance(sqlite3_bind_int64(statement.sqliteStatement, next, value))
    }

    /// Binds a Boolean to the next placeholder, as GRDB does: 1 or 0.
    mutating func bind(_ value: Bool) throws {
        try bind(value ? 1 : 0 as Int64)
    }

    /// Binds text to the next placeholder (UTF-8, every byte of it).
    mutating func bind(_ value: String) throws {
        var value = value
        let code = try value.withUTF8 { text in
            let statement = statement.sqliteStatement, index = next
            guard let start = text.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, SQLITE_TRANSIENT) }
            return sqlite3_bind_text(statement, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), try Self.length(text.count), SQLITE_TRANSIENT)
        }
        try advance(code)
    }

    /// Binds bytes to the next placeholder, as a blob (an empty one for no bytes, never NULL).
    mutating func bind(_ value: Data) throws {
        let code = try value.withUnsafeBytes { bytes in
            let statement = statement.sqliteStatement, index = next
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
            return sqlite3_bind_blob(statement, index, start, try Self.length(bytes.count), SQLITE_TRANSIENT)
        }
        try advance(code)
    }

    /// Runs the statement to its end, once every placeholder has its value.
    func execute() throws {
        try checkComplete()
        try statement.execute()
    }

    /// The statement's rows, once every placeholder has its value.
    func rows() throws -> RowCursor {
        try checkComplete()
        return try Row.fetchCursor(statement)
    }

    private mutating func advance(_ code: CInt) throws {
        guard code == SQLITE_OK else {
            throw ServerError.storage(.failed("binding value \(next) of a statement failed (SQLite code \(code)): \(statement.sql.prefix(80))"))
        }
        next += 1
    }

    private func checkComplete() throws {
        let expected = sqlite3_bind_parameter_count(statement.sqliteStatement)
        guard next - 1 == expected else {
            throw ServerError.storage(.failed("\(next - 1) values bound to a statement of \(expected) placeholders: \(statement.sql.prefix(80))"))
        }
    }

    /// A length SQLite takes, or the error why it cannot.
    private static func length(_ count: Int) throws -> CInt {
        guard let length = CInt(exactly: count) else { throw ServerError.storage(.failed("a value of \(count) bytes is too large for SQLite")) }
        return length
    }
}

/// SQLite's "copy the value before the call returns" destructor, which its C header spells as a
/// cast of -1 that Swift does not import.
private let SQLITE_TRANSIENT = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
