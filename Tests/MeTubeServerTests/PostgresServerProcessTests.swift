import AsyncHTTPClient
import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeServer
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

/// `--database`, `--database-pool` and `METUBE_DATABASE_URL` through the real executable.
@Suite struct PostgresServerProcessTests {
    @Test func badDatabaseOptionsAreRefusedWithAClearMessage() throws {
        let cases: [([String], [String: String], Int32, String)] = [
            (["--database", "postgres://hub:hunter2@host/db?sslmode=maybe"], [:], 64, "sslmode=maybe"),
            (["--database", "postgres://hub@host/db", "--db", "/tmp/hub.sqlite"], [:], 64, "give either --database or --db, not both"),
            (["--database-pool", "0"], [:], 64, "--database-pool must be 1…500"),
            ([], ["METUBE_DATABASE_URL": "mysql://hub@host/db"], 64, "$METUBE_DATABASE_URL"),
            (["--database", "postgres://hub@127.0.0.1:1/db", "--public-url", "https://hub.example.org"], [:], 1, "SQLite only"),
            (["--database", "postgres://hub@127.0.0.1:1/db?sslmode=disable"], [:], 1, "cannot connect to the database postgres://hub@127.0.0.1:1/db"),
        ]
        for (arguments, environment, status, message) in cases {
            let outcome = try runProcess(
                ProductBinary.url("metube-server"), ["serve", "--port", "0", "--poll-interval", "0"] + arguments, environment: environment)
            #expect(outcome.status == status, "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
            #expect(!outcome.stderr.contains("hunter2"))
        }
    }

    @Test(.timeLimit(.minutes(1))) func twoServersShareOneDatabase() async throws {
        // Given a user added through $METUBE_DATABASE_URL and two servers on the same database
        let url = try PostgresTestCluster.database()
        let added = try runProcess(ProductBinary.url("metube-server"), ["users", "add", "erin"], environment: ["METUBE_DATABASE_URL": url])
        #expect(added.status == 0, "\(added.stderr)")
        let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let first = try ServerProcess(arguments: ["serve", "--port", "0", "--poll-interval", "0", "--database", url, "--database-pool", "2"])
        defer { first.kill() }
        let second = try ServerProcess(arguments: ["serve", "--port", "0", "--poll-interval", "0", "--database", url])
        defer { second.kill() }
        let one = "http://127.0.0.1:\(try await first.listening(within: .seconds(30)))"
        let two = "http://127.0.0.1:\(try await second.listening(within: .seconds(30)))"

        // When a channel is registered on the first and the user lists zones on the second
        let channel = DemoCatalog.channelID(42)
        let registered = try await Self.post(one + HubAPI.registerPath, HubRegisterRequest(channelIDs: [channel]))
        let listed = try await Self.post(two + HubAPI.channelsPath, HubChannelsRequest(limit: 10))
        let zones = try await Self.post(
            two + "/database/1/\(StatusConfiguration.defaultContainer)/production/private/zones/list?ckAPIToken=metube&ckWebAuthToken=\(token)",
            nil as String?)

        // Then the second sees the channel and accepts the token the command added
        #expect(registered.status == .ok)
        #expect(try JSONDecoder().decode(HubChannelList.self, from: listed.body).channels.map(\.channelID) == [channel])
        #expect(zones.status == .ok, "\(String(decoding: zones.body, as: UTF8.self))")
    }

    private static func post(_ url: String, _ body: (some Encodable)?) async throws -> (status: HTTPResponseStatus, body: Data) {
        var request = HTTPClientRequest(url: url)
        request.method = body == nil ? .GET : .POST
        if let body { request.body = .bytes(try JSONEncoder().encode(body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (response.status, Data(bytes.readableBytesView))
    }
}
