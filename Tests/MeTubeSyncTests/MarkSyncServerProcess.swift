import Foundation
import MeTubeAPI
import MeTubeSync
import TestSupport

/// A real `metube-server` (``ServerProcess``) on 127.0.0.1 with one mark-sync user, on an SQLite
/// file or a PostgreSQL database, and mark syncs of stores through it.
final class MarkSyncServerProcess: Sendable {
    /// The storage the server runs on.
    enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
        case sqlite
        case postgres

        var description: String { rawValue }
    }

    private let server: ServerProcess
    /// The server's base URL.
    var baseURL: String { server.baseURL }
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
        server = try await ServerProcess.launch(["serve", "--port", "0", "--poll-interval", "0", "--status-rate", "0"] + database + arguments, within: .seconds(30))
        let added = try runProcess(ProductBinary.url("metube-server"), ["users", "add", "user"] + database)
        guard added.status == 0 else { throw ServerProcessFailure("users add failed: \(added.stderr)") }
        token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A mark-sync client of the user.
    var client: MarkSyncClient {
        MarkSyncClient(endpoint: MarkSyncEndpoint(serverURL: baseURL, environment: "development"), userToken: token, timeoutSeconds: 10,
                     retryPolicy: RetryPolicy(delays: [.milliseconds(5), .milliseconds(10)], jitter: 0))
    }

    /// A mark sync of `store` through this server.
    func sync(_ store: any MarkSyncStore) -> MarkSync {
        MarkSync(client: client, store: store)
    }
}
