import Foundation
import TestSupport

extension ServerProcess {
    /// The `metube-server` executable next to `metube-bench` (`swift build -c release` builds both).
    static var binary: URL { ProductBinary.url("metube-server") }

    /// Starts the server beside the bench with `arguments`, its errors on the bench's standard
    /// error, and returns once it listens.
    static func start(_ arguments: [String]) async throws -> ServerProcess {
        try await launch(arguments, standardError: .standardError)
    }

    /// Starts the server on the SQLite file `databasePath`, seeded with the demo library, without
    /// polling, throttling or registration limits.
    static func start(databasePath: String) async throws -> ServerProcess {
        try await start([
            "serve", "--database", databasePath, "--port", "0", "--demo", "--demo-interval", "86400", "--poll-interval", "0",
            "--status-rate", "0", "--register-limit", "0", "--max-connections", "1000", "--log-level", "critical",
        ])
    }
}
