import Foundation
import MeTubeCore
import MeTubeFeeds
@testable import MeTubeYouTube
import TestSupport
import Testing

/// Resolving handles, names, users and videos to channel ids: through the Data API stub, through
/// the stand-in yt-dlp, and each way failing with one clear line.
@Suite struct ChannelResolverTests {
    private let veritasium = "UCHnyfMqiRRG1u-2MsSQLbXA"
    private let nasa = "UCLA_DiR1FfKNvjuUpBHmylQ"
    private let video = "dQw4w9WgXcQ"
    private let rick = "UCuAXFkgsw1L7xaCfnd5JJOw"

    @Test func theDataAPIResolvesHandlesCustomNamesUsersAndVideos() async throws {
        // Given a Data API knowing a handle, a user and a video
        let stub = await YouTubeStub.start(override: YouTubeStub.resolving(
            handles: ["veritasium": veritasium], users: ["NASAtelevision": nasa], videos: [video: rick]))
        defer { stub.stop() }
        let api = YouTubeDataAPI(key: "test-key", baseURL: stub.url)
        // When each link form is resolved
        // Then each gives its channel, a custom name falling back from handle to user name
        #expect(try await api.channelID(of: .handle("Veritasium")) == veritasium)
        #expect(try await api.channelID(of: .user("nasatelevision")) == nasa)
        #expect(try await api.channelID(of: .customName("NASAtelevision")) == nasa)
        #expect(try await api.channelID(of: .video(video)) == rick)
        #expect(stub.requests.first?.query["forHandle"] == "@Veritasium")
        #expect(stub.requests.first?.query["part"] == "id")
    }

    @Test func aHandleTheDataAPIDoesNotKnowAndASpentQuotaEachGiveOneLine() async throws {
        // Given a Data API knowing nothing, and one whose quota is spent
        let empty = await YouTubeStub.start(override: YouTubeStub.resolving())
        let spent = await YouTubeStub.start(override: YouTubeStub.resolving(quotaSpent: { true }))
        defer { empty.stop(); spent.stop() }
        // When a handle and a video are resolved
        let missing = await #expect(throws: YouTubeError.self) { try await YouTubeDataAPI(key: "k", baseURL: empty.url).channelID(of: .handle("nobody_here")) }
        let noVideo = await #expect(throws: YouTubeError.self) { try await YouTubeDataAPI(key: "k", baseURL: empty.url).channelID(of: .video(video)) }
        let quota = await #expect(throws: YouTubeError.self) { try await YouTubeDataAPI(key: "k", baseURL: spent.url).channelID(of: .handle("veritasium")) }
        // Then the first two say the link does not exist, the last that the quota is spent
        #expect(missing == .notFound("@nobody_here"))
        #expect(noVideo == .notFound("video \(video)"))
        #expect(quota?.isQuota == true)
        #expect(quota?.description.contains("quota") == true)
    }

    @Test func ytDLPResolvesWithTheChannelIDOnly() async throws {
        // Given yt-dlp knowing a handle and a video
        let standIn = try YTDLPStandIn()
        defer { standIn.remove() }
        try standIn.setLinks([ChannelLink.handle("veritasium").url: veritasium, ChannelLink.video(video).url: rick])
        let ytDLP = YTDLPCatalog(command: standIn.executable.path)
        // When a handle and a video are resolved
        // Then each gives its channel, the handle from an info-dict without entries and the video from --print channel_id
        #expect(try await ytDLP.channelID(of: .handle("veritasium")) == veritasium)
        #expect(try await ytDLP.channelID(of: .video(video)) == rick)
        let calls = standIn.calls()
        #expect(calls.first == ["--ignore-config", "--no-warnings", "--dump-single-json", "--flat-playlist", "--playlist-items", "0", "--", "https://www.youtube.com/@veritasium"])
        #expect(calls.last == ["--ignore-config", "--no-warnings", "--print", "channel_id", "--", "https://www.youtube.com/watch?v=\(video)"])
    }

    @Test(arguments: [
        (YTDLPStandIn.Mode.garbage, "not JSON"), (.huge, "more than"), (.old, "too old"), (.fail, "does not exist on YouTube"),
    ])
    func ytDLPFaultsGiveOneClearLine(mode: YTDLPStandIn.Mode, expected: String) async throws {
        // Given yt-dlp printing garbage, too much, refusing an option, or failing
        let standIn = try YTDLPStandIn()
        defer { standIn.remove() }
        try standIn.setMode(mode)
        // When a handle is resolved
        let error = await #expect(throws: YouTubeError.self) {
            try await YTDLPCatalog(command: standIn.executable.path, maxOutputBytes: 1 << 20).channelID(of: .handle("veritasium"))
        }
        // Then one line says what went wrong
        let line = error?.description ?? ""
        #expect(line.contains(expected), "\(line)")
        #expect(!line.contains("\n"))
    }

    @Test func aMissingOrSlowYTDLPAndNoWayAtAllEachGiveOneLine() async throws {
        // Given a yt-dlp that does not exist, one that never answers, and a resolver with neither way
        let standIn = try YTDLPStandIn()
        defer { standIn.remove() }
        try standIn.setMode(.slow)
        let missing = YTDLPCatalog(command: standIn.directory.appendingPathComponent("absent").path)
        let slow = YTDLPCatalog(command: standIn.executable.path, deadline: .milliseconds(500))
        let neither = ChannelResolver(dataAPI: nil, ytDLP: nil, hints: (key: "--youtube-api-key", ytDLP: "--yt-dlp"))
        // When a handle is resolved through each
        let errors = [
            await #expect(throws: YouTubeError.self) { try await missing.channelID(of: .handle("veritasium")) },
            await #expect(throws: YouTubeError.self) { try await slow.channelID(of: .handle("veritasium")) },
            await #expect(throws: YouTubeError.self) { try await neither.channelID(of: .handle("veritasium")) },
        ]
        // Then each says so, the last naming both ways
        #expect(errors[0]?.description.contains("yt-dlp not found") == true)
        #expect(errors[1] == .timedOut(seconds: 1))
        #expect(errors[2]?.description.contains("--youtube-api-key") == true)
        #expect(errors[2]?.description.contains("--yt-dlp") == true)
    }

    @Test func aYTDLPPrintingAnInvalidChannelIDIsGarbage() async throws {
        // Given yt-dlp answering a video with something that is not a channel id
        let standIn = try YTDLPStandIn()
        defer { standIn.remove() }
        try standIn.setLinks([ChannelLink.video(video).url: "UC<script>"])
        // When it is resolved
        let error = await #expect(throws: YouTubeError.self) { try await YTDLPCatalog(command: standIn.executable.path).channelID(of: .video(video)) }
        // Then nothing invalid comes back
        #expect(error?.description.contains("no valid channel id") == true)
    }
}
