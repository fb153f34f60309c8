import Foundation
import MeTubeCore
import MeTubeFeeds
import TestSupport
import Testing

/// `metube channels add` and `metube import` with handles and video links, resolved by the yt-dlp
/// of `[download] command` (the stand-in), and what a user sees when that fails.
@Suite struct CLILinkResolutionTests {
    let metube = ProductBinary.url("metube")
    private let veritasium = "UCHnyfMqiRRG1u-2MsSQLbXA"
    private let rick = "UCuAXFkgsw1L7xaCfnd5JJOw"
    private let luke = "UC2eYFnH61tmytImy1mTYvhA"

    private func options(_ directory: TemporaryDirectory, ytDLP: String) throws -> [String] {
        let config = directory.url.appendingPathComponent("config.toml")
        try "[download]\ncommand = \"\(ytDLP)\"\n".write(to: config, atomically: true, encoding: .utf8)
        return ["--data-dir", directory.url.path, "--config", config.path]
    }

    @Test func channelsAddFollowsAHandleAVideoLinkAndAnIDAndReportsAMissingHandle() async throws {
        // Given yt-dlp knowing a handle and a video
        let directory = TemporaryDirectory()
        let standIn = try YTDLPStandIn()
        defer { directory.remove(); standIn.remove() }
        try standIn.setLinks([ChannelLink.handle("veritasium").url: veritasium, ChannelLink.video("dQw4w9WgXcQ").url: rick])
        let options = try options(directory, ytDLP: standIn.executable.path)
        // When the handle, a shared video link, an id and an unknown handle are added
        let add = try await runProcessOffPool(metube, ["channels", "add", "https://m.youtube.com/@Veritasium?si=abc", "https://youtu.be/dQw4w9WgXcQ?si=x",
                                                       luke, "@nobody_here"] + options)
        // Then the three known ones are followed, the unknown one named on one line, and the exit is 2
        #expect(add.status == 2)
        #expect(add.stdout.contains("added 3 channel(s)"), "\(add.stdout)")
        #expect(add.stderr.contains("@nobody_here: @nobody_here does not exist on YouTube"), "\(add.stderr)")
        let list = try await runProcessOffPool(metube, ["channels", "list"] + options)
        for id in [veritasium, rick, luke] { #expect(list.stdout.contains(id)) }
    }

    @Test func aBadLinkAddsNothingAndAMissingYTDLPSaysSoAndKeepsTheIDs() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let options = try options(directory, ytDLP: directory.url.appendingPathComponent("no-yt-dlp").path)
        // Given a link that names no channel
        // When it is added with a good id, the whole command refuses with 65
        #expect(try await runProcessOffPool(metube, ["channels", "add", luke, "https://youtube.com/feed/subscriptions"] + options).status == 65)
        // And given no yt-dlp at all, a handle beside an id
        let add = try await runProcessOffPool(metube, ["channels", "add", luke, "@veritasium"] + options)
        // Then the id is followed and the handle's line says yt-dlp is missing
        #expect(add.status == 2)
        #expect(add.stdout.contains("added 1 channel(s)"))
        #expect(add.stderr.contains("yt-dlp not found"), "\(add.stderr)")
    }

    @Test func importResolvesHandlesInBulkAndReportsEachFailureByLine() async throws {
        // Given a plain list of an id, a handle, a video link, a repeat of the handle's channel and an unknown handle
        let directory = TemporaryDirectory()
        let standIn = try YTDLPStandIn()
        defer { directory.remove(); standIn.remove() }
        try standIn.setLinks([ChannelLink.handle("veritasium").url: veritasium, ChannelLink.video("dQw4w9WgXcQ").url: rick])
        let options = try options(directory, ytDLP: standIn.executable.path)
        let list = "\(luke)\n@veritasium\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ&feature=share\nhttps://www.youtube.com/channel/\(veritasium)\n@nobody_here\n"
        try list.write(toFile: directory.path("list.txt"), atomically: true, encoding: .utf8)
        // When it is imported
        let run = try await runProcessOffPool(metube, ["import", directory.path("list.txt")] + options)
        // Then the three channels are followed, the unknown handle is reported at its line, and the exit is 2
        #expect(run.status == 2)
        #expect(run.stdout.contains("added 3"), "\(run.stdout)")
        #expect(run.stderr.contains("line 5: not resolved: @nobody_here does not exist on YouTube"), "\(run.stderr)")
        #expect(run.stderr.contains("line 2: duplicate: @veritasium is \(veritasium)"), "\(run.stderr)")
        #expect(run.stderr.contains("resolving links: 3/3"))
    }
}
