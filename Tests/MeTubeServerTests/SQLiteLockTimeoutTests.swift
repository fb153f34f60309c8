import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// SQLite's locks have an end too: a write that cannot take the database's lock within the busy
/// timeout is answered 503 `TRY_AGAIN_LATER` with `retryAfter`, as a PostgreSQL stall is.
@Suite struct SQLiteLockTimeoutTests {
    @Test(.timeLimit(.minutes(1))) func aWriteThatCannotTakeTheLockIsAnswered503AndWritesResumeOnceItIsFree() async throws {
        // Given the real server on a database file, a user, and another process holding the file's write lock
        let directory = TemporaryDirectory("metube-sqlite-lock")
        defer { directory.remove() }
        let path = directory.path("hub.sqlite")
        let added = try runProcess(ProductBinary.url("metube-server"), ["users", "add", "eve", "--database", path])
        let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServerProcess(arguments: ["serve", "--port", "0", "--poll-interval", "0", "--database", path])
        defer { server.kill() }
        let base = "http://127.0.0.1:\(try await server.listening(within: .seconds(60)))"
        let write = #"{"operations":[{"operationType":"forceReplace","record":{"recordName":"r","recordType":"Mark","fields":{"n":{"value":1}}}}]}"#
        #expect(try await MarkSyncWriteLoad.post("records/modify", to: base, token: token, body: write).status == 200)
        let locker = try LockHolder(path: path)

        // When the user writes
        let stalled = try await MarkSyncWriteLoad.post("records/modify", to: base, token: token, body: write)

        // Then the write is answered TRY_AGAIN_LATER (503) with a retryAfter
        #expect(stalled.status == 503, "\(stalled.body)")
        #expect(stalled.body.contains("TRY_AGAIN_LATER") && stalled.body.contains("retryAfter"), "\(stalled.body)")
        // And once the lock is free the same write goes through
        locker.release()
        #expect(try await MarkSyncWriteLoad.post("records/modify", to: base, token: token, body: write).status == 200)
    }
}

/// A python3 process holding an exclusive SQLite transaction on a file until released.
private final class LockHolder: Sendable {
    private let process: Process
    private let input: FileHandle

    /// Starts the process and returns once it holds the lock.
    init(path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            sys.stdin.readline()
            connection.execute("ROLLBACK")
            """, path]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let line = String(decoding: stdout.fileHandleForReading.readData(ofLength: 7), as: UTF8.self)
        guard line == "locked\n" else { throw LockHolderFailure(description: "python3 did not take the lock: \(line)") }
        self.process = process
        input = stdin.fileHandleForWriting
    }

    /// Ends the transaction and waits for the process to exit. It is told with a line rather than
    /// by closing its input: a process the other tests start meanwhile may hold the pipe open too.
    func release() {
        input.write(Data("release\n".utf8))
        process.waitUntilExit()
    }
}

private struct LockHolderFailure: Error, CustomStringConvertible {
    let description: String
}
