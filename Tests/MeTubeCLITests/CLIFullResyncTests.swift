import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `metube sync --full` and `metube doctor`'s suggestion of it, through the real binary.
@Suite struct CLIFullResyncTests {
    let metube = ProductBinary.url("metube")

    @Test func syncFullForgetsTheSyncPositionsEvenWhenTheHubIsDown() throws {
        // Given a store with a hub watermark, acknowledged channels and a mark-sync token
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 2, videoCount: 10, markCount: 0)
        let store = try Store.open(at: directory.url)
        var sync = store.syncSnapshot()
        sync.hubWatermark = 500
        sync.hubRegisteredChannelIDs = library.channels().map(\.id)
        sync.markSyncToken = "token-1"
        try store.apply(StoreChange(videos: library.videos(), channels: library.channels(), sync: sync))

        // When a full resync runs against a hub nobody listens on
        let outcome = try runProcess(metube, ["sync", "--full", "--hub-url", "http://127.0.0.1:9", "--data-dir", directory.url.path,
                                              "--config", directory.path("none.toml")],
                                     environment: ["XDG_CONFIG_HOME": directory.path("config")])

        // Then the sync fails, the positions are forgotten for the next run, and no video is lost
        #expect(outcome.status == 1)
        let after = try Store.open(at: directory.url)
        #expect(after.syncSnapshot().hubWatermark == 0)
        #expect(after.syncSnapshot().hubRegisteredChannelIDs.isEmpty)
        #expect(after.syncSnapshot().markSyncToken == nil)
        #expect(after.library().videos.count == 10)
    }

    @Test func doctorSuggestsAFullResyncAfterARefusedWatermark() throws {
        // Given a store whose last sync found its watermark refused
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        _ = try Store.open(at: directory.url)
        let dataDir = ["--data-dir", directory.url.path]
        #expect(try !runProcess(metube, ["doctor"] + dataDir).stdout.contains("SUGGEST"))
        try Data(#"{"hubWatermark":"the hub refused the watermark 500 (afterSeq too large)"}"#.utf8)
            .write(to: URL(fileURLWithPath: directory.path("sync-rejections.json")))

        // When the doctor looks
        let outcome = try runProcess(metube, ["doctor"] + dataDir)
        let json = try runProcess(metube, ["doctor", "--json"] + dataDir)

        // Then it suggests a full resync, and the store still counts as healthy
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("SUGGEST  sync: the last sync found that the hub refused the watermark 500"))
        #expect(outcome.stdout.contains("metube sync --full"))
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((report?["suggestions"] as? [String])?.first?.contains("metube sync --full") == true)
    }
}
