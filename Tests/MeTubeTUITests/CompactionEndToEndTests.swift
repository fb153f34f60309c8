import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// The TUI folds a grown journal into new snapshots by itself, off the key path.
@Suite("TUI compaction in tmux")
struct CompactionEndToEndTests {
    @Test("a key pressed during the compaction of 50,000 videos is written at once, not after it")
    func aKeyDuringCompactionDoesNotWaitForIt() throws {
        // Given a store whose journal holds 50,000 videos (over the 2 MiB threshold), never compacted
        let directory = TemporaryDirectory("metube-tui-compaction")
        defer { directory.remove() }
        let generator = SyntheticLibrary(channelCount: 216, videoCount: 50_000, markCount: 0)
        let storeURL = directory.url.appendingPathComponent("data", isDirectory: true)
        let store = try Store.open(at: storeURL)
        try store.apply(StoreChange(videos: generator.videos(), channels: generator.channels()))
        #expect(store.needsCompaction)
        let journals = try FileManager.default.contentsOfDirectory(atPath: storeURL.path).filter { $0.hasSuffix(".jsonl") }
        #expect(journals.count == 1)

        // When the TUI runs on it, and `w` is pressed while its background compaction is writing
        // the new snapshots
        let tmux = try EndToEndTests.start(storeURL, in: directory)
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("hub: not configured") }
        // (deadlines long enough for a debug build on a loaded two-core machine; only a failing
        // test waits them out)
        let writingDeadline = ContinuousClock.now + .seconds(120)
        // (from the first staged snapshot until they are all switched in, so a look that comes
        // late still sees it)
        func compactionIsWriting() throws -> Bool {
            try FileManager.default.contentsOfDirectory(atPath: storeURL.path).contains { $0.contains(".json.tmp-") }
        }
        while try !compactionIsWriting(), ContinuousClock.now < writingDeadline { usleep(500) }
        #expect(try compactionIsWriting(), "the TUI never started compacting")
        try tmux.send("w")

        // Then the mark is appended to the journal the compaction is folding (it did not wait for
        // the switch to the new one), is carried over, and everything survives; the folded journal
        // itself moves into the backup it follows
        let videoID = generator.video(0).id
        func journalsHoldingTheMark() throws -> [String] {
            let backups = storeURL.appendingPathComponent("backups", isDirectory: true)
            let folders = [storeURL] + ((try? FileManager.default.contentsOfDirectory(atPath: backups.path)) ?? []).map { backups.appendingPathComponent($0) }
            return try folders.flatMap { folder in
                try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }.filter { name in
                    try String(contentsOfFile: folder.appendingPathComponent(name).path, encoding: .utf8).contains("\"videoID\":\"\(videoID)\"")
                }
            }
        }
        // The compaction's last step moves the journal it folded into its backup (`library.json`
        // is there from the start: the store's first write made empty snapshots).
        func compactionSwitched() -> Bool { !FileManager.default.fileExists(atPath: storeURL.appendingPathComponent(journals[0]).path) }
        let switchDeadline = ContinuousClock.now + .seconds(180)
        while try !compactionSwitched() || journalsHoldingTheMark().isEmpty, ContinuousClock.now < switchDeadline { usleep(20_000) }
        #expect(try journalsHoldingTheMark().contains(journals[0]), "the mark waited for the compaction to finish")
        try tmux.send("q")
        #expect(try EndToEndTests.waitForExit(tmux) == 0)
        let reopened = try Store.open(at: storeURL)
        #expect(!reopened.needsCompaction)
        #expect(reopened.library().videos.count == 50_000)
        #expect(reopened.library().marks[videoID]?.status == .watched)
    }
}
