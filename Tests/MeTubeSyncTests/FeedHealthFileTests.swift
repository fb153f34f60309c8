import Foundation
import MeTubeCore
import Testing
import TestSupport
@testable import MeTubeSync

/// The file direct mode keeps failing feeds in between runs: what is written reads back, and a
/// hostile file is ignored whole with one warning.
@Suite struct FeedHealthFileTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    static func state(_ random: inout SplitMix64) -> FeedHealthState {
        let nowMS = now.millisecondsSince1970
        var state = FeedHealthState(savedAt: nowMS - Int64(random.next() % 600_000), feeds: "http://127.0.0.1:\(random.next() % 65_536)/feeds/videos.xml?channel_id={channelId}")
        for index in 0..<Int(random.next() % 50) {
            let id = FailingFeedServer.channelIDs(index + 1)[index]
            let status: Int? = random.next() % 3 == 0 ? nil : [404, 429, 500, 503][Int(random.next() % 4)]
            state.channels[id] = FeedHealthState.ChannelBackoff(
                until: nowMS + Int64(random.next() % UInt64(FeedHealthFile.horizon)) - 3_600_000, failures: 1 + Int(random.next() % 64),
                status: status, reason: status.map { "HTTP \($0)" } ?? "timeout"
            )
        }
        if random.next() % 2 == 0 {
            state.outage = FeedHealthState.Outage(since: nowMS - Int64(random.next() % 86_400_000), reason: "HTTP 404", nextProbe: nowMS + Int64(random.next() % 60_000))
        }
        return state
    }

    @Test func whatIsWrittenReadsBack() throws {
        // Given random states (METUBE_TEST_SEED repeats a run)
        let seed = ProcessInfo.processInfo.environment["METUBE_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        print("FeedHealthFileTests seed: \(seed)")
        var random = SplitMix64(seed: seed)
        let directory = TemporaryDirectory("metube-feed-health")
        defer { directory.remove() }
        let file = FeedHealthFile(url: directory.url.appendingPathComponent("state/metube/feed-health.json"))

        for _ in 0..<200 {
            // When each is written over the last, then read
            let state = Self.state(&random)
            #expect(file.save(state) == nil)
            let (read, warning) = file.load(now: Self.now)

            // Then it reads back as written, from a private file
            #expect(warning == nil, "seed \(seed)")
            #expect(read == state, "seed \(seed)")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: file.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: file.url.deletingLastPathComponent().path) == ["feed-health.json"])
    }

    @Test func moreChannelsThanTheLimitKeepThoseBackingOffLongest() {
        let directory = TemporaryDirectory("metube-feed-health")
        defer { directory.remove() }
        let file = FeedHealthFile(url: directory.url.appendingPathComponent("feed-health.json"))
        let ids = FailingFeedServer.channelIDs(FeedHealthFile.maximumChannels + 10)
        var state = FeedHealthState(savedAt: Self.now.millisecondsSince1970, feeds: "x")
        for (index, id) in ids.enumerated() {
            state.channels[id] = FeedHealthState.ChannelBackoff(until: Self.now.millisecondsSince1970 + Int64(index), failures: 1, status: 404, reason: "HTTP 404")
        }
        #expect(file.save(state) == nil)
        let read = file.load(now: Self.now).state
        #expect(read?.channels.count == FeedHealthFile.maximumChannels)
        #expect(read?.channels[ids[0]] == nil)
        #expect(read?.channels[ids.last!] != nil)
    }

    @Test(arguments: ["corrupt", "huge", "future", "farFutureEntry", "badChannel", "newerVersion"])
    func aHostileFileIsIgnoredWithOneWarning(kind: String) throws {
        // Given a state file that cannot be trusted
        let directory = TemporaryDirectory("metube-feed-health")
        defer { directory.remove() }
        let file = FeedHealthFile(url: directory.url.appendingPathComponent("feed-health.json"))
        let nowMS = Self.now.millisecondsSince1970
        var state = FeedHealthState(savedAt: nowMS, feeds: "x")
        state.channels[FailingFeedServer.channelIDs(1)[0]] = FeedHealthState.ChannelBackoff(until: nowMS + 60_000, failures: 1, status: 404, reason: "HTTP 404")
        switch kind {
        case "corrupt": try Data("{\"version\":1,\"savedAt\":".utf8).write(to: file.url)
        case "huge": try Data(repeating: 0x20, count: FeedHealthFile.maximumBytes + 1).write(to: file.url)
        case "future": state.savedAt = nowMS + 86_400_000
        case "farFutureEntry": state.channels[FailingFeedServer.channelIDs(1)[0]]?.until = Date.distantFuture.millisecondsSince1970
        case "badChannel": state.channels["../../etc/passwd"] = FeedHealthState.ChannelBackoff(until: nowMS, failures: 1, status: 404, reason: "x")
        default: state.version = 2
        }
        if !["corrupt", "huge"].contains(kind) { try JSONEncoder().encode(state).write(to: file.url) }

        // When it is read
        let (read, warning) = file.load(now: Self.now)

        // Then nothing of it is taken up, and one warning names the file
        #expect(read == nil)
        #expect(warning?.contains(file.url.path) == true)
        #expect(warning?.contains("\n") == false)
    }

    @Test func noFileIsNoStateAndNoWarning() {
        let file = FeedHealthFile(url: URL(fileURLWithPath: "/nonexistent/metube/feed-health.json"))
        let (state, warning) = file.load(now: Self.now)
        #expect(state == nil)
        #expect(warning == nil)
    }
}
