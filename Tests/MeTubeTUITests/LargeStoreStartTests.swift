import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeTUI
import Testing
import TestSupport

/// The real `metube` binary in tmux on a 200,000-video store with titles and descriptions sized
/// like real feeds': the first frame comes from the store's head, complete and newest first, and
/// the whole library replaces it once loaded.
@Suite("TUI start on a large store")
struct LargeStoreStartTests {
    @Test("a 200k store: the first frame is the newest rows, then the counts of the whole library")
    func firstFrameOfA200kStore() throws {
        // Given a compacted store of 200,000 videos over 2,000 channels, the newest one marked since
        let directory = TemporaryDirectory("metube-tui-200k")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 2_000, videoCount: 200_000, markCount: 100_000)
        let storeURL = try EndToEndTests.makeStore(library, in: directory)
        try Store.open(at: storeURL).mark(SyntheticLibrary.videoID(0), as: .watched)
        let opened = try Store.open(at: storeURL)
        let full = opened.library()
        let unwatched = FeedQuery(filter: .unwatched).rows(in: full, statusesKnown: true)
        // (holding no description in memory, each read back on demand as it was generated)
        #expect(full.videos.allSatisfy { $0.description == nil })
        for index in [0, 1, 99_999, 199_999] {
            #expect(try opened.description(of: SyntheticLibrary.videoID(index)) == library.video(index).description)
        }
        let timing = directory.path("timing.jsonl")

        // When metube starts
        let tmux = try EndToEndTests.start(storeURL, in: directory, extraEnvironment: [:], arguments: ["--timing", timing])
        defer { tmux.close() }
        let first = try tmux.waitFor { $0.contains("hub: not configured") }

        // Then the first screen is complete: every list row holds the next newest unwatched video,
        // in order, the marked one left out
        let listRows = 30 - 3
        for (line, row) in unwatched.prefix(listRows).enumerated() {
            #expect(EndToEndTests.line(line + 1, of: first).contains(Self.titleStart(row.video.title)), "row \(line + 1): \(first)")
        }
        // And while the rest loads, the status line says how far the newest rows go
        let status = EndToEndTests.line(30 - 2, of: first)
        if status.contains("loading") {
            #expect(status.contains("of the newest") && status.contains("loading \(grouped(200_000))"), "\(status)")
        }
        // And once everything is loaded the status line counts the whole library
        try tmux.waitFor(timeout: .seconds(180)) { $0.contains("\(grouped(unwatched.count)) of \(grouped(200_000))") }
        // And every video is there under the `all` filter, the newest (marked) one first
        try tmux.send("f")
        try tmux.waitFor { $0.contains("\(grouped(200_000)) of \(grouped(200_000))") }
        try tmux.send("g")
        let newestTitle = Self.titleStart(full.videos[0].title)
        let all = try tmux.waitFor { EndToEndTests.line(1, of: $0).contains(newestTitle) }
        let newest = FeedQuery(filter: .all).rows(in: full, statusesKnown: true, limit: listRows)
        for (line, row) in newest.enumerated() {
            #expect(EndToEndTests.line(line + 1, of: all).contains(Self.titleStart(row.video.title)), "row \(line + 1): \(all)")
        }
        try tmux.send("q")
        #expect(try EndToEndTests.waitForExit(tmux) == 0)

        // And the first frame was drawn from the head, before the whole library was read
        let events = try String(contentsOfFile: timing, encoding: .utf8).split(separator: "\n").compactMap { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        let firstFrame = try #require(events.first { $0["event"] as? String == "first-frame" })
        let loaded = try #require(events.first { $0["event"] as? String == "library-loaded" })
        #expect((firstFrame["videos"] as? Int ?? .max) <= 2_001)
        #expect(loaded["videos"] as? Int == 200_000)
    }

    /// The start of `title` as a row shows it (a few characters of a wide script, more of ASCII).
    private static func titleStart(_ title: String) -> String {
        String(title.prefix(title.utf8.allSatisfy { $0 < 0x80 } ? 24 : 4))
    }

    /// `value` with thousands separators, as the status line shows counts.
    private func grouped(_ value: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.groupingSeparator = ","
        formatter.usesGroupingSeparator = true
        return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }
}
