import Foundation
import MeTubeDemo
import Testing
import TestSupport

/// `metube-server --demo` with polling on: the demo's channels are made up and the demo knows
/// their videos' lengths, so the channel catalog asks yt-dlp nothing about them and logs no
/// failing call.
@Suite struct DemoCatalogCallsTests {
    @Test(.timeLimit(.minutes(2))) func theDemosChannelsCostNoCatalogCall() async throws {
        // Given a demo server polling every second a loopback feed server that answers each demo
        // channel, with a stand-in yt-dlp that records its calls
        let directory = TemporaryDirectory("metube-demo-catalog")
        let feeds = await ScriptedFeedServer.start()
        let standIn = try YTDLPStandIn()
        defer { directory.remove(); feeds.stop(); standIn.remove() }
        let channels = DemoCatalog().channelCount
        for number in 0..<channels { feeds.setFeed([], for: DemoCatalog.channelID(number)) }
        let log = directory.path("server.log")
        FileManager.default.createFile(atPath: log, contents: nil)
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? logHandle.close() }
        let server = try await ServerProcess.launch([
            "--demo", "--port", "0", "--database", directory.path("hub.sqlite"), "--poll-interval", "1",
            "--feed-url-template", feeds.feedURLTemplate, "--feed-rate", "0", "--yt-dlp", standIn.executable.path,
        ], standardError: logHandle, within: .seconds(30))
        defer { server.stop() }

        // When its first polling round over the demo's channels is over
        try await eventually("a feed round") { (try? String(contentsOfFile: log, encoding: .utf8))?.contains("feed round") == true ? () : nil }

        // Then yt-dlp was never asked, and the log says nothing of a channel catalog
        #expect(feeds.requests.count >= channels)
        #expect(standIn.calls().isEmpty, "\(standIn.calls().count) calls, the first \(standIn.calls().first ?? [])")
        let catalogLines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("channel catalog") }
        #expect(catalogLines.isEmpty, "\(catalogLines.count) lines, the first \(catalogLines.first ?? "")")
    }
}
