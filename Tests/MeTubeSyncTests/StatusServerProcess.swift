import Foundation
import MeTubeAPI
import MeTubeSync
import Synchronization
import TestSupport

/// A real `metube-server` child process on 127.0.0.1 with one status user, on an SQLite file or
/// a PostgreSQL database, and status syncs of stores through it.
final class StatusServerProcess: Sendable {
    /// The storage the server runs on.
    enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
        case sqlite
        case postgres

        var description: String { rawValue }
    }

    private let process: Process
    /// The server's base URL.
    let baseURL: String
    /// The user's token.
    let token: String

    /// Starts a server on `backend` (an SQLite file in `directory`, or a new database of the
    /// test cluster) with `arguments` after the others (which they override), waits until it
    /// listens (within 30 s), and adds a user.
    init(_ backend: Backend, in directory: TemporaryDirectory, arguments: [String] = []) async throws {
        let database: [String] = switch backend {
        case .sqlite: ["--database", directory.path("server.sqlite")]
        case .postgres: ["--database", try PostgresTestCluster.database()]
        }
        let process = Process()
        process.executableURL = ProductBinary.url("metube-server")
        process.arguments = ["serve", "--port", "0", "--poll-interval", "0", "--status-rate", "0"] + database + arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        let lines = stdout.outputChunks()
        try process.run()
        self.process = process
        let port = try await Self.port(in: lines, within: .seconds(30))
        baseURL = "http://127.0.0.1:\(port)"
        let added = try runProcess(ProductBinary.url("metube-server"), ["users", "add", "user"] + database)
        guard added.status == 0 else { throw ServerProcessFailure("users add failed: \(added.stderr)") }
        token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The port the server prints in `listening on http://HOST:PORT`, failing after `limit`.
    private static func port(in output: AsyncStream<String>, within limit: Duration) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                var printed = ""
                for await chunk in output {
                    printed += chunk
                    guard let range = printed.range(of: "listening on http://"), let end = printed[range.upperBound...].firstIndex(of: "\n") else { continue }
                    let hostAndPort = printed[range.upperBound..<end].split(separator: "/").first ?? ""
                    if let port = hostAndPort.split(separator: ":").last.flatMap({ Int($0) }) { return port }
                }
                throw ServerProcessFailure("the server closed stdout without saying where it listens")
            }
            group.addTask {
                try await Task.sleep(for: limit)
                throw ServerProcessFailure("the server did not listen within \(limit)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }

    /// A status client of the user.
    var client: MarkSyncClient {
        MarkSyncClient(endpoint: MarkSyncEndpoint(serverURL: baseURL, environment: "development"), userToken: token, timeoutSeconds: 10,
                     retryPolicy: RetryPolicy(delays: [.milliseconds(5), .milliseconds(10)], jitter: 0))
    }

    /// A status sync of `store` through this server.
    func sync(_ store: any MarkSyncStore) -> MarkSync {
        MarkSync(client: client, store: store)
    }
}

/// Why the server process could not be used.
struct ServerProcessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
