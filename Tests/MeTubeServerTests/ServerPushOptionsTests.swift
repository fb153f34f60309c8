import AsyncHTTPClient
import Foundation
import Logging
import MeTubeAPI
import NIOCore
import Testing
import TestSupport
@testable import MeTubeServer

/// The command-line options of WebSub push and the YouTube Data API, through the real executable.
@Suite struct ServerPushOptionsTests {
    static func serve(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessOutcome {
        try runProcess(ProductBinary.url("metube-server"), ["serve", "--port", "0", "--poll-interval", "0"] + arguments, environment: environment)
    }

    @Test func badPushOptionsAreRefusedWithAClearMessageBeforeAnythingStarts() throws {
        let cases: [([String], String)] = [
            (["--public-url", "ftp://hub.example.org"], "--public-url must be an http:// or https:// URL"),
            (["--public-url", "https://hub.example.org/?x=1"], "--public-url must not carry"),
            (["--public-url", "https://hub.example.org/" + String(repeating: "a", count: 1_100)], "--public-url must be a URL of 1…1024 bytes"),
            (["--websub-hub", "not a url"], "--websub-hub must be an http:// or https:// URL"),
            (["--websub-poll-interval", "0"], "--websub-poll-interval must be"),
            (["--youtube-daily-units", "0", "--youtube-api-key", "AIzaGood_Key-123"], "--youtube-daily-units must be"),
            (["--youtube-api-key", "AIzaGood", "--youtube-api-key-file", "/dev/null"], "not both"),
            (["--youtube-api-key-file", "/nonexistent/metube-key"], "cannot read the YouTube API key file"),
        ]
        for (arguments, message) in cases {
            let outcome = try Self.serve(arguments)
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.stderr.contains(message), "\(arguments): \(outcome.stderr)")
        }
    }

    @Test func aMalformedKeyIsRefusedWithoutBeingQuoted() throws {
        for outcome in [
            try Self.serve(["--youtube-api-key", "secret key!"]),
            try Self.serve([], environment: ["METUBE_YOUTUBE_API_KEY": "secret key!"]),
        ] {
            #expect(outcome.status == 64)
            #expect(outcome.stderr.contains("the YouTube API key must be"))
            #expect(!outcome.stderr.contains("secret key!"))
        }
    }

    @Test(.timeLimit(.minutes(1))) func theRealServerSubscribesVerifiesIngestsAndCountsDeliveries() async throws {
        // Given the real executable with WebSub on, a loopback hub and metrics
        let hub = LoopbackWebSubHub()
        let (hubService, hubURL) = await BackgroundService.serve(hub.router, label: "websub-hub")
        defer { hubService.stop() }
        let directory = TemporaryDirectory("metube-websub")
        defer { directory.remove() }
        let server = try ServerProcess(arguments: [
            "serve", "--host", "127.0.0.1", "--port", "0", "--database", directory.path("hub.sqlite"), "--poll-interval", "0",
            "--public-url", WebSubTests.publicURL, "--websub-hub", hubURL + "/subscribe", "--metrics-port", "0",
        ])
        defer { server.kill() }
        let base = "http://127.0.0.1:\(try await server.listening(within: .seconds(60)))"
        let metrics = "http://127.0.0.1:\(try await server.port(after: "metrics on http://", within: .seconds(30)))/metrics"

        // When a client registers the channel, the hub verifies and delivers one signed and one forged push
        var register = HTTPClientRequest(url: base + HubAPI.registerPath)
        register.method = .POST
        register.body = .bytes(try JSONEncoder().encode(HubRegisterRequest(channelIDs: [WebSubTests.channel])))
        #expect(try await HTTPClient.shared.execute(register, timeout: .seconds(30)).status == .ok)
        var requests = hub.requests.makeAsyncIterator()
        let request = try #require(await requests.next())
        let challenge = try await Self.call(base + LoopbackWebSubHub.verificationURI(request, challenge: "from-the-hub", leaseSeconds: 3600))
        let push = try WebSubTests.fixture("gearplug_push_notification_real_2017.xml")
        let signed = try await Self.call(base + LoopbackWebSubHub.path(of: request.callback), body: push, signature: LoopbackWebSubHub.signature(push, secret: request.secret))
        let forged = try await Self.call(base + LoopbackWebSubHub.path(of: request.callback), body: push, signature: LoopbackWebSubHub.signature(push, secret: "forged"))

        // Then the challenge is echoed, both pushes acknowledged, the video served, and /metrics counts one delivery and one rejection
        #expect(challenge.status == 200 && challenge.body == "from-the-hub")
        #expect(signed.status == 204 && forged.status == 204)
        let page = try await Self.call(base + HubAPI.videoQueryPath, body: Data(#"{"afterSeq":0}"#.utf8))
        #expect(page.body.contains(WebSubTests.pushedVideo))
        let text = try await Self.call(metrics).body
        #expect(ServerMetricsTests.sample(text, "metube_websub_deliveries_total") == 1)
        #expect(ServerMetricsTests.sample(text, "metube_websub_rejected_total") == 1)
    }

    /// A GET of `url`, or a POST of `body` with an `X-Hub-Signature` when one is given.
    static func call(_ url: String, body: Data? = nil, signature: String? = nil) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: url)
        if let body {
            request.method = .POST
            request.body = .bytes(body)
        }
        if let signature { request.headers.add(name: "X-Hub-Signature", value: signature) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }

    @Test func withoutAKeyTheServerSaysOnceThatDurationsAndThumbnailsAreOff() async throws {
        // Given a log capture
        let log = LogCapture()

        // When a polling server without a key is built
        _ = try await buildApplication(configuration: ServerConfiguration(logger: log.logger))

        // Then it says once that durations and thumbnails are off, and that Shorts are still recognised
        let notes = log.entries.filter { $0.message.contains("no YouTube Data API key") }
        #expect(notes.count == 1)
        #expect(notes.first?.message.contains("/shorts/") == true)
    }
}
