import Foundation
import Logging
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
