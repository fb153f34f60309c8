import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `metube sync --direct` when YouTube's feeds fail for every channel, through the real binary
/// against a loopback feed server that fails on command.
@Suite struct CLIFeedOutageTests {
    let metube = ProductBinary.url("metube")

    @Test func everyChannelFailingIsOneLineNotOnePerChannel() async throws {
        // Given a store following 100 channels whose feeds all answer 404
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = await FailingFeedServer.start()
        defer { server.stop() }
        server.set(.failing(status: 404))
        let channels = FailingFeedServer.channelIDs(100).map { Channel(id: $0) }
        try Store.open(at: directory.url).apply(StoreChange(channels: channels))
        let config = directory.path("config.toml")
        try "[hub]\nfeed-url-template = \"\(server.feedURLTemplate)\"\n".write(toFile: config, atomically: true, encoding: .utf8)

        // When `metube sync --direct` runs
        let outcome = try await runProcessOffPool(metube, ["sync", "--direct", "--data-dir", directory.url.path, "--config", config],
                                                  environment: ["XDG_CONFIG_HOME": directory.path("config"), "XDG_STATE_HOME": directory.path("state")])

        // Then it says so in one line, names no channel, stopped asking early, and fails
        #expect(outcome.status == 1)
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("youtube: feeds failing for every channel since ") && $0.hasSuffix("(HTTP 404)") }.count == 1)
        #expect(!outcome.stdout.contains(channels[0].id))
        #expect(lines.count <= 3)
        #expect(server.requests.values.reduce(0, +) <= 20 + 8)
    }
}
