import AsyncHTTPClient
import Foundation
import GRDB
import Glibc
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import MeTubeCore
import NIOCore
import Testing
import TestSupport
@testable import MeTubeServer

/// Issue 10, item 5: `metube-server users|channels|backup|restore`, run as the real binary against
/// real database files, with and without a server serving them.
@Suite struct ServerAdministrationTests {
    static let binary = ProductBinary.url("metube-server")

    static func admin(_ arguments: String..., input: String? = nil) throws -> ProcessOutcome {
        try runProcess(binary, arguments, input: input)
    }

    static func serve(_ path: String) throws -> ServerProcess {
        try ServerProcess(arguments: ["serve", "--host", "127.0.0.1", "--port", "0", "--database", path, "--poll-interval", "0", "--status-rate", "0", "--register-limit", "0"])
    }

    /// The HTTP status of `zones/list` as the user with `token`, and the error code of a failure.
    static func listZones(port: Int, token: String) async throws -> (status: Int, code: String?) {
        let uri = "/database/1/\(MarkSyncConfiguration.defaultContainer)/development/private/zones/list?ckAPIToken=\(MarkSyncConfiguration.defaultAPIToken)&ckWebAuthToken=\(token)"
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(uri)"), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        let code = (try? JSONDecoder().decode(MarkSyncErrorBody.self, from: Data(body.readableBytesView)))?.serverErrorCode.rawValue
        return (Int(response.status.code), response.status == .ok ? nil : code)
    }

    static func token(_ outcome: ProcessOutcome) -> String { outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines) }

    @Test func databaseNamesTheSQLiteFileAndTheOlderDbSpellingStillWorksWithANote() throws {
        // Given a user added with --database FILE
        let directory = TemporaryDirectory("metube-admin-spelling")
        defer { directory.remove() }
        let db = directory.path("hub.sqlite")
        let added = try Self.admin("users", "add", "alice", "--database", db)

        // When the users are listed with each spelling, with both, and with an empty name
        let listed = try Self.admin("users", "list", "--database", db)
        let listedOld = try Self.admin("users", "list", "--db", db)
        let both = try Self.admin("users", "list", "--database", db, "--db", db)
        let empty = try Self.admin("users", "list", "--database", "")

        // Then both spellings read the same file, only the old one notes it is deprecated, and
        // the two together or an empty name are refused as usage errors
        #expect(added.status == 0 && FileManager.default.fileExists(atPath: db), "\(added.stderr)")
        #expect(listed.status == 0 && listed.stdout.contains("alice") && !listed.stderr.contains("deprecated"))
        #expect(listedOld.status == 0 && listedOld.stdout == listed.stdout)
        #expect(listedOld.stderr.contains("--db is deprecated; use --database FILE"))
        #expect(both.status == 64 && both.stderr.contains("give --database once"))
        #expect(empty.status == 64 && empty.stderr.contains("--database: empty"))
    }

    @Test func removeAndRotateTakeEffectOnARunningServerAndListShowsNoTokens() async throws {
        // Given two users and a server serving their database
        let directory = TemporaryDirectory("metube-admin-users")
        defer { directory.remove() }
        let db = directory.path("hub.sqlite")
        let alice = Self.token(try Self.admin("users", "add", "alice", "--database", db))
        let bob = Self.token(try Self.admin("users", "add", "bob", "--database", db))
        let server = try Self.serve(db)
        defer { server.kill() }
        let port = try await server.listening(within: .seconds(60))
        #expect(try await Self.listZones(port: port, token: alice).status == 200)
        #expect(try await Self.listZones(port: port, token: bob).status == 200)

        // When alice's token is rotated and bob is removed (declining once, then with --yes)
        let rotated = try Self.admin("users", "rotate", "alice", "--database", db)
        let declined = try Self.admin("users", "remove", "bob", "--database", db, input: "n\n")
        let removed = try Self.admin("users", "remove", "bob", "--database", db, "--yes")

        // Then the running server refuses the old tokens at once and accepts the new one
        #expect(rotated.status == 0 && declined.status == 1 && removed.status == 0)
        let newAlice = Self.token(rotated)
        #expect(newAlice.count >= 32 && newAlice != alice)
        for oldToken in [alice, bob] {
            let refused = try await Self.listZones(port: port, token: oldToken)
            #expect(refused.status == 421)
            #expect(refused.code == MarkSyncErrorCode.authenticationRequired.rawValue)
        }
        #expect(try await Self.listZones(port: port, token: newAlice).status == 200)

        // And the list names alice with her creation and last-seen times, bob not at all, and no token
        let list = try Self.admin("users", "list", "--database", db)
        #expect(list.status == 0)
        let rows = list.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.count == 1)
        #expect(rows.first?.first == "alice")
        #expect(rows.first?.count == 3 && rows.first?.dropFirst().allSatisfy { $0 != "-" } == true)
        #expect(![alice, bob, newAlice].contains { list.stdout.contains($0) })
        let zones = try await DatabaseQueue(path: db).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM status_zones WHERE user_id NOT IN (SELECT id FROM status_users)") }
        #expect(zones == 0, "bob's zones are gone with him")
    }

    @Test func eachFailureHasItsOwnExitCodeAndMessage() throws {
        let directory = TemporaryDirectory("metube-admin-errors")
        defer { directory.remove() }
        let db = directory.path("hub.sqlite")

        // A missing database: 3, and no file is created
        let missing = try Self.admin("users", "list", "--database", db)
        #expect(missing.status == 3 && missing.stderr.contains("no database at"))
        #expect(!FileManager.default.fileExists(atPath: db))

        // An unknown user or channel: 4, and one line naming it
        _ = try Self.admin("users", "add", "alice", "--database", db)
        for arguments in [["users", "rotate", "carol"], ["users", "remove", "carol", "--yes"], ["users", "quota", "carol"], ["users", "quota", "carol", "--zones", "5"]] {
            let outcome = try runProcess(Self.binary, arguments + ["--database", db])
            #expect(outcome.status == 4, "\(arguments)")
            #expect(outcome.stderr == "metube-server: no user named carol\n", "\(arguments)")
        }
        let channel = try runProcess(Self.binary, ["channels", "remove", "UCnothing", "--database", db])
        #expect(channel.status == 4 && channel.stderr == "metube-server: no channel UCnothing\n")

        // A busy database: 5 (a held server lock refuses a restore)
        let backup = directory.path("backup.sqlite")
        #expect(try Self.admin("backup", backup, "--database", db).status == 0)
        let lock = try ServerDatabaseLock(databasePath: db)
        let busy = try Self.admin("restore", backup, "--database", db)
        #expect(busy.status == 5 && busy.stderr.contains("database busy"))
        withExtendedLifetime(lock) {}
    }

    @Test func backupWhileServingIsConsistentAndRestoreRefusesUntilTheServerStops() async throws {
        // Given a served database that clients keep writing to
        let directory = TemporaryDirectory("metube-admin-backup")
        defer { directory.remove() }
        let db = directory.path("hub.sqlite")
        let token = Self.token(try Self.admin("users", "add", "alice", "--database", db))
        let server = try Self.serve(db)
        defer { server.kill() }
        let port = try await server.listening(within: .seconds(60))
        let writer = Task {
            var registered = 0
            while !Task.isCancelled, registered < 2_000 {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(HubAPI.registerPath)")
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                let ids = (0..<20).map { "UC\(String(format: "%022d", registered + $0))" }
                request.body = .bytes(try JSONEncoder().encode(["channelIds": ids]))
                _ = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                registered += ids.count
            }
            return registered
        }
        _ = try await Self.listZones(port: port, token: token)

        // When it is backed up while the writes go on
        let backup = directory.path("backup.sqlite")
        let backedUp = try Self.admin("backup", backup, "--database", db)
        _ = try await writer.value

        // Then the copy passes SQLite's integrity check and holds the user and whole registrations
        #expect(backedUp.status == 0, "\(backedUp.stderr)")
        let copy = try DatabaseQueue(path: backup)
        let (integrity, users, channels) = try await copy.read { db in
            (try String.fetchOne(db, sql: "PRAGMA integrity_check"), try Int.fetchOne(db, sql: "SELECT count(*) FROM status_users") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM hub_channels") ?? 0)
        }
        try copy.close()
        #expect(integrity == "ok" && users == 1 && channels % 20 == 0)

        // And restoring over the served file is refused, leaving it alone
        let refused = try Self.admin("restore", backup, "--database", db)
        #expect(refused.status == 5 && refused.stderr.contains("running metube-server"))
        #expect(try await Self.listZones(port: port, token: token).status == 200)

        // And once the server has stopped, the restore puts the backup's contents in place
        server.send(SIGTERM)
        #expect(try await server.exit(within: .seconds(15)) == 0)
        let restored = try Self.admin("restore", backup, "--database", db)
        #expect(restored.status == 0, "\(restored.stderr)")
        let channelList = try Self.admin("channels", "list", "--database", db)
        #expect(channelList.stdout.split(separator: "\n").count == channels + 1)
    }

    @Test func healthNamesTheVersionInAHeader() async throws {
        try await Application(router: buildRouter(hubRepository: try SQLiteHubRepository())).test(.router) { client in
            try await client.execute(uri: HubAPI.healthPath, method: .get) { response throws in
                #expect(String(buffer: response.body) == "ok")
                #expect(response.headers[HubResponses.versionHeader] == MeTubeVersion.current)
            }
        }
    }
}
