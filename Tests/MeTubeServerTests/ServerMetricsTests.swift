import AsyncHTTPClient
import Foundation
import MeTubeAPI
import NIOCore
import Testing
import TestSupport

/// Issue 10, item 6: `serve --metrics-port` serves Prometheus text counting the traffic it saw.
@Suite struct ServerMetricsTests {
    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 4 << 20)))
    }

    /// The value of the sample whose line starts with `name{` and contains every label in `labels`.
    static func sample(_ text: String, _ name: String, _ labels: [String] = []) -> Double? {
        text.split(separator: "\n").first { line in
            (line.hasPrefix(name + "{") || line.hasPrefix(name + " ")) && labels.allSatisfy { line.contains($0) }
        }.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }

    @Test func metricsCountKnownTrafficPerRouteAndTheUsersAndChannels() async throws {
        // Given a server with two users, serving metrics on a port of its own
        let directory = TemporaryDirectory("metube-metrics")
        defer { directory.remove() }
        let db = directory.path("hub.sqlite")
        for name in ["alice", "bob"] {
            #expect(try runProcess(ProductBinary.url("metube-server"), ["users", "add", name, "--database", db]).status == 0)
        }
        let server = try ServerProcess(arguments: [
            "serve", "--host", "127.0.0.1", "--port", "0", "--database", db, "--poll-interval", "0", "--metrics-port", "0",
        ])
        defer { server.kill() }
        let port = try await server.listening(within: .seconds(60))
        let metricsPort = try await server.port(after: "metrics on http://", within: .seconds(30))

        // When a client makes 3 health checks, registers 2 channels and asks for a missing path
        for _ in 0..<3 { #expect(try await Self.get("http://127.0.0.1:\(port)\(HubAPI.healthPath)").status == 200) }
        var register = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(HubAPI.registerPath)")
        register.method = .POST
        register.headers.add(name: "Content-Type", value: "application/json")
        register.body = .bytes(try JSONEncoder().encode(HubRegisterRequest(channelIDs: ["UC" + String(repeating: "a", count: 22), "UC" + String(repeating: "b", count: 22)])))
        #expect(try await HTTPClient.shared.execute(register, timeout: .seconds(30)).status == .ok)

        // Then /metrics counts them per route, with a latency histogram, and counts users and channels
        let (status, text) = try await Self.get("http://127.0.0.1:\(metricsPort)/metrics")
        #expect(status == 200)
        #expect(Self.sample(text, "hb_requests", ["http_route=\"/health\"", "http_response_status_code=\"200\""]) == 3)
        #expect(Self.sample(text, "hb_requests", ["http_route=\"\(HubAPI.registerPath)\""]) == 1)
        #expect(Self.sample(text, "http_server_request_duration_count", ["http_route=\"/health\""]) == 3)
        #expect(Self.sample(text, "metube_users") == 2)
        #expect(Self.sample(text, "metube_channels") == 2)
        #expect(text.contains("metube_ingest_feeds_total"))
        #expect(Self.sample(text, "metube_db_pool_wait_seconds_count", ["access=\"write\""]) ?? 0 >= 1)
        #expect(Self.sample(text, "metube_db_pool_wait_seconds_count", ["access=\"read\""]) ?? 0 >= 1)
    }
}
