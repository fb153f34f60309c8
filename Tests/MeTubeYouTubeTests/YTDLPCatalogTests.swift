import Foundation
import MeTubeCore
import MeTubeDownloads
import MeTubeJSON
@testable import MeTubeYouTube
import TestSupport
import Testing

@Suite("yt-dlp catalog through the stand-in")
struct YTDLPCatalogTests {
    static let channel = "UCaaaaaaaaaaaaaaaaaaaaaa"

    private func standIn(_ uploads: [YTDLPStandIn.Upload]) throws -> YTDLPStandIn {
        let standIn = try YTDLPStandIn()
        try standIn.setUploads(uploads, for: Self.channel)
        return standIn
    }

    @Test func readsTheLastUploadsWithDurations() async throws {
        let uploads = (0..<60).map { YTDLPStandIn.Upload(id: String(format: "vid%08d", $0), title: "Video \($0)", duration: Double(60 + $0)) }
        let standIn = try standIn(uploads)
        defer { standIn.remove() }
        let answer = try await YTDLPCatalog(command: standIn.executable.path).channelUploads(Self.channel, count: 50)
        #expect(answer.videos.count == 50)
        #expect(answer.videos.first == CatalogVideo(id: "vid00000000", title: "Video 0", durationSeconds: 60))
        #expect(standIn.calls().first?.contains("--flat-playlist") == true)
    }

    @Test func dropsBadIDsAndSanitizesTitles() async throws {
        let standIn = try standIn([
            .init(id: "short", title: "x", duration: 5),
            .init(id: "good_id-001", title: "line\u{1B}[31m\nbreak", duration: -3),
            .init(id: "good_id-001", title: "again", duration: 5),
            .init(id: "good_id-002", title: nil, duration: 1e12),
        ])
        defer { standIn.remove() }
        let answer = try await YTDLPCatalog(command: standIn.executable.path).channelUploads(Self.channel, count: 50)
        #expect(answer.videos.map(\.id) == ["good_id-001", "good_id-002"])
        #expect(answer.rejected == 2)
        #expect(answer.videos.allSatisfy { $0.durationSeconds == nil })
        #expect(answer.videos[0].title?.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } == true)
    }

    @Test(arguments: [
        (YTDLPStandIn.Mode.garbage, "not JSON"), (.fail, "This channel does not exist"), (.huge, "more than"), (.old, "too old"),
    ])
    func faultsGiveOneClearLine(mode: YTDLPStandIn.Mode, expected: String) async throws {
        let standIn = try standIn([])
        defer { standIn.remove() }
        try standIn.setMode(mode)
        let error = await #expect(throws: YouTubeError.self) {
            try await YTDLPCatalog(command: standIn.executable.path, maxOutputBytes: 1 << 20).channelUploads(Self.channel, count: 5)
        }
        let line = error.map { "\($0)" } ?? ""
        #expect(line.contains(expected), "\(line)")
        #expect(!line.contains("\n"))
    }

    @Test func aSlowYTDLPIsKilledAtItsDeadline() async throws {
        let standIn = try standIn([])
        defer { standIn.remove() }
        try standIn.setMode(.slow)
        let error = await #expect(throws: YouTubeError.self) {
            try await YTDLPCatalog(command: standIn.executable.path, deadline: .milliseconds(500)).channelUploads(Self.channel, count: 5)
        }
        #expect(error == .timedOut(seconds: 1))
    }

    @Test func aMissingYTDLPIsNamed() async throws {
        let error = await #expect(throws: YouTubeError.self) {
            try await YTDLPCatalog(command: "/nonexistent/yt-dlp").channelUploads(Self.channel, count: 5)
        }
        #expect(error == .missingExecutable("/nonexistent/yt-dlp"))
    }

    @Test func anAnswerForAnotherChannelIsRefused() throws {
        let answer = try JSONValue.parse(#"{"_type": "playlist", "channel_id": "UCbbbbbbbbbbbbbbbbbbbbbb", "entries": [{"id": "good_id-001"}]}"#)
        #expect(throws: YouTubeError.self) { try YTDLPCatalog.uploads(of: Self.channel, in: answer, count: 5) }
    }
}

@Suite("the options passed exist in the real yt-dlp")
struct YTDLPHelpTests {
    @Test func everyOptionUsedIsInTheRealHelp() throws {
        guard let ytdlp = YTDLPRun.executable("yt-dlp") else {
            Issue.record("yt-dlp is not installed (make deps)")
            return
        }
        let help = try runProcess(ytdlp, ["--help"]).stdout
        let listed = Set(help.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" }).map(String.init))
        let missing = YTDLPCatalog.optionsUsed.filter { $0 != "--" && !listed.contains($0) }
        #expect(missing.isEmpty, "yt-dlp --help does not list \(missing)")
    }
}
