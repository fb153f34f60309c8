import CSQLite

/// A prepared statement owned by one `SQLiteConnection`.
///
/// Bind parameters (1-based, as in SQLite), step through rows and read columns (0-based).
/// A statement is not `Sendable`: it lives inside the connection's serialized owner.
public final class SQLiteStatement {
    let handle: OpaquePointer
    private let connection: OpaquePointer
    /// The SQL this statement was prepared from.
    public let sql: String

    init(connection: OpaquePointer, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(connection)), context: "preparing \(sql)")
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to parameters 1, 2, … in order.
    @discardableResult
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) -> SQLiteStatement {
        reset()
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
        return self
    }

    /// Binds one value to the 1-based parameter `index`.
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            code = sqlite3_bind_text(handle, index, text, Int32(text.utf8.count), csqlite_transient())
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), csqlite_transient())
            }
        }
        try check(code, "binding parameter \(index)")
    }

    /// Advances to the next row; true when a row is available, false when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(code: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)), context: "running \(sql)")
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs the statement to completion, ignoring any rows.
    public func run() throws(SQLiteError) {
        while try step() {}
        reset()
    }

    /// Calls `body` for every remaining row, then resets the statement.
    public func forEachRow(_ body: (SQLiteStatement) throws(SQLiteError) -> Void) throws(SQLiteError) {
        defer { reset() }
        while try step() {
            try body(self)
        }
    }

    /// Resets the statement so it can run again; bindings are cleared.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// True when column `index` of the current row is `NULL`.
    public func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` of the current row as an integer (0 for `NULL`).
    public func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` of the current row as an `Int` (0 for `NULL`).
    public func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    /// Column `index` of the current row as an integer, or nil for `NULL`.
    public func optionalInt(_ index: Int32) -> Int? { isNull(index) ? nil : int(index) }

    /// Column `index` of the current row as a double (0 for `NULL`).
    public func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// Column `index` of the current row as text (empty for `NULL`).
    public func text(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Calls `body` with the UTF-8 bytes of column `index` of the current row (empty for `NULL`),
    /// valid only during the call, so they can be copied without making a `String`.
    public func withTextBytes<Result>(_ index: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard let bytes = sqlite3_column_text(handle, index) else { return body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return body(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, index))))
    }

    /// Column `index` of the current row as text, or nil for `NULL`.
    public func optionalText(_ index: Int32) -> String? { isNull(index) ? nil : text(index) }

    /// Column `index` of the current row as bytes (empty for `NULL`).
    public func blob(_ index: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    private func check(_ code: Int32, _ context: String) throws(SQLiteError) {
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(connection)), context: "\(context) of \(sql)")
        }
    }
}
