import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubeStore
import TestSupport
import Testing

/// `metube sync --direct` run again and again, as from cron, against a loopback feed server that
/// fails on command: channels backing off and a source that is down are remembered between the
/// processes, in the state directory.
@Suite struct CLIFeedBackoffTests {
    let metube = ProductBinary.url("metube")

    /// A store following `count` channels of `server`, its config, and the environment whose
    /// state directory the runs share.
    struct Setup {
        let directory = TemporaryDirectory("metube-cli-backoff")
        let server: FailingFeedServer
        let channels: [String]

        init(channels count: Int) async throws {
            server = await FailingFeedServer.start()
            channels = FailingFeedServer.channelIDs(count)
            try Store.open(at: directory.url).apply(StoreChange(channels: channels.map { Channel(id: $0) }))
            try "[hub]\nfeed-url-template = \"\(server.feedURLTemplate)\"\nbackfill = 0\n[download]\ncommand = \"\"\n".write(toFile: directory.path("config.toml"), atomically: true, encoding: .utf8)
        }

        var stateFile: URL { URL(fileURLWithPath: directory.path("state")).appendingPathComponent("metube/feed-health.json") }

        func sync(_ metube: URL, _ extra: [String] = []) async throws -> ProcessOutcome {
            try await runProcessOffPool(
                metube, ["sync", "--direct", "--data-dir", directory.url.path, "--config", directory.path("config.toml")] + extra,
                environment: ["XDG_CONFIG_HOME": directory.path("config"), "XDG_STATE_HOME": directory.path("state")]
            )
        }

        func stop() {
            server.stop()
            directory.remove()
        }
    }

    @Test func aChannelBackingOffIsSkippedByTheNextRunUntilItsBackoffPassesOrForce() async throws {
        // Given 30 channels, three of them answering 404
        let setup = try await Setup(channels: 30)
        defer { setup.stop() }
        let failing = Array(setup.channels.prefix(3))
        setup.server.set(.failing(status: 404), for: failing)
        let first = try await setup.sync(metube)
        #expect(first.status == 2)

        // When the next run starts, as from cron
        setup.server.resetCounts()
        let second = try await setup.sync(metube, ["--json"])

        // Then it asks no channel still backing off, and says how many it skipped and until when
        #expect(failing.allSatisfy { setup.server.requests[$0] == nil })
        #expect(setup.server.requests.count == 27)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        #expect(json["backingOff"] as? Int == 3)
        #expect((json["backingOffUntil"] as? String).flatMap(ISO8601Timestamp.parse).map { $0 > Date() } == true)
        let text = try await setup.sync(metube)
        #expect(text.stdout.contains("3 of 30 channels failing (3 backing off, skipped until "))

        // And `--force` asks them anyway
        setup.server.resetCounts()
        _ = try await setup.sync(metube, ["--force"])
        #expect(failing.allSatisfy { setup.server.requests[$0] == 1 })

        // And once their backoff has passed, the next run asks them again
        var state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: setup.stateFile)) as? [String: Any])
        var kept = try #require(state["channels"] as? [String: [String: Any]])
        #expect(Set(kept.keys) == Set(failing))
        for id in kept.keys { kept[id]?["until"] = Date().millisecondsSince1970 - 1000 }
        state["channels"] = kept
        try JSONSerialization.data(withJSONObject: state).write(to: setup.stateFile)
        setup.server.resetCounts()
        setup.server.set(.answering, for: failing)
        let recovered = try await setup.sync(metube)
        #expect(recovered.status == 0)
        #expect(failing.allSatisfy { setup.server.requests[$0] == 1 })
    }

    @Test func aSourceDownForEveryChannelIsProbedOnceByTheNextRun() async throws {
        // Given a run that found every channel's feed failing
        let setup = try await Setup(channels: 100)
        defer { setup.stop() }
        setup.server.set(.failing(status: 404))
        _ = try await setup.sync(metube)

        // When the next run starts while it lasts
        setup.server.resetCounts()
        let next = try await setup.sync(metube)

        // Then it asks one feed, and says the source is down once
        #expect(next.status == 1)
        #expect(setup.server.requests.values.reduce(0, +) == 1)
        #expect(next.stdout.split(separator: "\n").filter { $0.hasPrefix("youtube: feeds failing for every channel since ") }.count == 1)
    }

    @Test func aCorruptStateFileIsIgnoredWithOneWarningAndReplaced() async throws {
        // Given a state file that is not one
        let setup = try await Setup(channels: 30)
        defer { setup.stop() }
        try FileManager.default.createDirectory(at: setup.stateFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: setup.stateFile)

        // When a run starts
        let outcome = try await setup.sync(metube)

        // Then it fetches every channel, warns once, and leaves a readable file
        #expect(outcome.status == 0)
        #expect(setup.server.requests.count == 30)
        #expect(outcome.stdout.components(separatedBy: "note: ignored \(setup.stateFile.path)").count == 2)
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: setup.stateFile)) as? [String: Any]
        #expect(written?["version"] as? Int == 1)
    }
}

extension Date {
    fileprivate var millisecondsSince1970: Int64 { Int64(timeIntervalSince1970 * 1000) }
}
