import Foundation
@testable import MeTubeServer
import ServerTestSupport
import Testing
import TestSupport

/// The one place that chooses the backend (``ServerBackend``), as `serve`, the administration
/// commands and `users add` use it.
@Suite struct ServerBackendTests {
    @Test func theLocationNamesTheBackendAndTheAdministrationNeverCreatesAFile() async throws {
        let directory = TemporaryDirectory("metube-backend")
        defer { directory.remove() }
        let path = directory.path("hub.sqlite")

        // When the administration opens an SQLite file that is not there
        // Then it fails and creates nothing
        await #expect(throws: ServerError.self) { try await ServerBackend.open(.sqlite(path: path), existing: true) }
        #expect(!FileManager.default.fileExists(atPath: path))

        // When a user is added to each backend, and the administration opens it
        for location in [ServerBackend.Location.sqlite(path: path), .postgres(try PostgresDatabaseURL(parsing: PostgresTestCluster.database()))] {
            let backend = try await ServerBackend.open(location)
            _ = try await MarkSyncService(repository: backend.markSync).addUser(name: "alice")
            let administered = try await ServerBackend.open(location, existing: true)

            // Then each opened the backend the location names, and the administration sees the user
            switch (location, backend, administered) {
            case (.sqlite, .sqlite, .sqlite), (.postgres, .postgres, .postgres): break
            default: Issue.record("\(location) opened another backend")
            }
            #expect(try await administered.administration.users().map(\.name) == ["alice"])

            // And a server configured with the location opens it too
            var configuration = ServerConfiguration()
            configuration.databaseLocation = location
            #expect(configuration.databaseLocation == location)
            #expect(try await ServerStorage.open(configuration: configuration).counts().users == 1)
        }
    }

    @Test func usersAddWithOnlyAStatusFileMakesItTheDatabaseAndServeRefusesItBesidePostgreSQL() throws {
        let directory = TemporaryDirectory("metube-backend-cli")
        defer { directory.remove() }
        let binary = ProductBinary.url("metube-server")
        let file = directory.path("status.sqlite")

        // When a user is added with --status-db only, then listed with --database
        let added = try runProcess(binary, ["users", "add", "alice", "--status-db", file])
        let listed = try runProcess(binary, ["users", "list", "--database", file])

        // Then the status file is the database
        #expect(added.status == 0, "\(added.stderr)")
        #expect(listed.status == 0 && listed.stdout.contains("alice"), "\(listed.stderr)")

        // When serve is given a PostgreSQL database and a status file
        let refused = try runProcess(binary, ["serve", "--database", "postgres://u@127.0.0.1:1/db", "--status-db", file, "--poll-interval", "0"])

        // Then it refuses before opening anything
        #expect(refused.status != 0 && refused.stderr.contains("--status-db belongs to an SQLite --database"), "\(refused.stderr)")
    }
}
