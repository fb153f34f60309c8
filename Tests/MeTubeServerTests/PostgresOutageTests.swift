import Foundation
import AsyncHTTPClient
import Glibc
import Logging
@testable import MeTubeServer
import NIOCore
import PostgresNIO
import ServerTestSupport
import TestSupport
import Testing

/// The real server on a PostgreSQL cluster of its own that is stopped, killed and started again
/// under a write load of several users (issue 23 item 1).
@Suite(.serialized) struct PostgresOutageTests {
    /// The users writing, and the writers per user.
    private static let users = ["ann", "ben", "cat", "dan"]
    private static let writersPerUser = 4
    /// How long the test waits for every user to write again after the database's return; the
    /// recovery time itself is a figure of `metube-bench postgres`.
    private static let recoveryLimit: Duration = .seconds(30)

    @Test(.timeLimit(.minutes(4))) func everyUserWritesAgainAfterAStopAndAKillAndNothingAcknowledgedIsLost() async throws {
        // Given the real server on a cluster of its own, with four users writing from 16 writers
        let cluster = try PostgresScratchCluster()
        let url = try cluster.database(named: "metube_outage")
        var tokens: [String: String] = [:]
        for user in Self.users {
            let added = try runProcess(ProductBinary.url("metube-server"), ["users", "add", user, "--database", url])
            #expect(added.status == 0, "\(added.stderr)")
            tokens[user] = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let server = try ServerProcess(arguments: [
            "serve", "--port", "0", "--poll-interval", "0", "--database", url, "--database-pool", "4", "--metrics-port", "0",
        ])
        defer { server.kill() }
        let base = "http://127.0.0.1:\(try await server.listening(within: .seconds(60)))"
        let metrics = "http://127.0.0.1:\(try await server.port(after: "metrics on http://", within: .seconds(10)))/metrics"
        let load = MarkSyncWriteLoad(base: base, tokens: tokens)
        let writers = Task { await load.run(writersPerUser: Self.writersPerUser) }
        defer { writers.cancel() }
        try await load.waitUntilEveryUserWrote(after: .now, within: Self.recoveryLimit)

        for outage in [Outage.fastStop, .killOfThePostmaster] {
            // When the database goes away under the load
            switch outage {
            case .fastStop: try cluster.stop()
            case .killOfThePostmaster: try cluster.killPostmaster()
            }
            // Then the server says so: /health answers 503 with a reason, writes answer 503
            let health = try await Self.waitForHealth(base, status: 503)
            #expect(health.contains("database unavailable"), "\(outage): \(health)")
            try await load.waitForRefusals(within: Self.recoveryLimit)

            // And once it is back, every user writes again
            try cluster.start()
            let returned = ContinuousClock.now
            try await load.waitUntilEveryUserWrote(after: returned, within: Self.recoveryLimit)
            #expect(try await Self.waitForHealth(base, status: 200) == "ok")
        }
        writers.cancel()
        await writers.value

        // And every acknowledged record is there
        for (user, names) in load.acknowledged {
            let stored = try await load.storedNames(of: user, among: names)
            #expect(stored == names, "\(user): \(names.subtracting(stored).count) of \(names.count) acknowledged records missing")
        }
        // And /metrics counted both outages and the requests refused meanwhile
        let exported = try await Self.get(metrics)
        #expect(Self.value(of: "metube_db_outages_total", in: exported) ?? 0 >= 2, "\(exported)")
        #expect(Self.value(of: "metube_db_unavailable_total", in: exported) ?? 0 > 0, "\(exported)")
        #expect(Self.value(of: "metube_db_reachable", in: exported) == 1, "\(exported)")
        // And SIGTERM still stops the server promptly
        server.send(SIGTERM)
        #expect(try await server.exit(within: .seconds(20)) == 0)
    }

    @Test(.timeLimit(.minutes(2))) func aWriteStalledByATableLockIsAnswered503WithRetryAfterAndWritesResumeOnceItIsReleased() async throws {
        // Given the real server, a user, and another session holding an exclusive lock on the records
        let url = try PostgresTestCluster.database()
        let added = try runProcess(ProductBinary.url("metube-server"), ["users", "add", "eve", "--database", url])
        let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServerProcess(arguments: ["serve", "--port", "0", "--poll-interval", "0", "--database", url])
        defer { server.kill() }
        let base = "http://127.0.0.1:\(try await server.listening(within: .seconds(60)))"
        let write = #"{"operations":[{"operationType":"forceReplace","record":{"recordName":"r","recordType":"Mark","fields":{"n":{"value":1}}}}]}"#
        #expect(try await MarkSyncWriteLoad.post("records/modify", to: base, token: token, body: write).status == 200)
        let parsed = try PostgresDatabaseURL(parsing: url)
        let locker = try await PostgresConnection.connect(
            configuration: .init(host: parsed.host, port: parsed.port, username: parsed.user, password: nil, database: parsed.database, tls: .disable),
            id: 1, logger: Logger(label: "metube-test.locker"))
        // (the connection is closed on every path: PostgresNIO traps on one dropped open)
        let stalled: (status: UInt, body: String)
        let health: String
        do {
            try await locker.query("BEGIN", logger: locker.logger)
            try await locker.query("LOCK TABLE status_records IN ACCESS EXCLUSIVE MODE", logger: locker.logger)

            // When the user writes
            stalled = try await MarkSyncWriteLoad.post("records/modify", to: base, token: token, body: write)
            health = try await Self.get(base + "/health")
            try await locker.query("COMMIT", logger: locker.logger)
            try await locker.close()
        } catch {
            try? await locker.close()
            throw error
        }

        // Then the write was answered TRY_AGAIN_LATER (503) with a retryAfter, not cut off
        #expect(stalled.status == 503, "\(stalled.body)")
        #expect(stalled.body.contains("TRY_AGAIN_LATER") && stalled.body.contains("retryAfter"), "\(stalled.body)")
        // And the database was not reported unreachable: it answered, slowly
        #expect(health == "ok")
        // And once the lock is released the same write goes through
        #expect(try await MarkSyncWriteLoad.post("records/modify", to: base, token: token, body: write).status == 200)
    }

    private enum Outage { case fastStop, killOfThePostmaster }

    /// The body of a GET of `url`.
    private static func get(_ url: String) async throws -> String {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        return String(buffer: try await response.body.collect(upTo: 1 << 20))
    }

    /// The value of the unlabelled metric `name` in Prometheus text.
    private static func value(of name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }

    /// Polls `/health` until it answers `status`, returning its body.
    private static func waitForHealth(_ base: String, status: UInt) async throws -> String {
        try await eventually(within: recoveryLimit, every: .milliseconds(50), "/health never answered \(status)") {
            var request = HTTPClientRequest(url: base + "/health")
            request.method = .GET
            guard let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(5)), response.status.code == status else { return nil }
            let body = try await response.body.collect(upTo: 1 << 16)
            return String(buffer: body).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
