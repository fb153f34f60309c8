import Logging
import MeTubeServer
import TestSupport

extension PostgresServerDatabase {
    /// A migrated database of its own in the test cluster, with a small pool.
    public static func forTests(poolSize: Int = 4) async throws -> PostgresServerDatabase {
        try await forTests(url: PostgresDatabaseURL(parsing: PostgresTestCluster.database()), poolSize: poolSize)
    }

    /// The database at `url`, opened as a server instance would, logging only critical messages.
    public static func forTests(url: PostgresDatabaseURL, poolSize: Int) async throws -> PostgresServerDatabase {
        var logger = Logger(label: "metube-test.postgres")
        logger.logLevel = .critical
        return try await PostgresServerDatabase(url: url, poolSize: poolSize, logger: logger)
    }
}
