import Foundation
import MeTubeCore
@testable import MeTubeStore
import Testing
import TestSupport

/// Descriptions stay on disk: the library holds where each one lies, and the store reads one on
/// demand, from whichever file it is in, whatever happened to the store since.
@Suite struct DescriptionOnDemandTests {
    private let generator = SyntheticLibrary(channelCount: 20, videoCount: 400, markCount: 50)

    private func expectDescriptions(of store: Store, _ indices: some Sequence<Int>, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for index in indices {
            let id = SyntheticLibrary.videoID(index)
            #expect(try store.description(of: id) == generator.video(index).description, "video \(index)", sourceLocation: sourceLocation)
        }
    }

    @Test func aLibraryHoldsNoDescriptionTextAndReadsEachBackAsWritten() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given videos with real-sized descriptions written by a sync, in journal lines
        let store = try Store.open(at: directory.url)
        try generator.fill(store, batch: 150)
        try store.apply(StoreChange(videos: [generator.video(7)]))
        // Then neither the writer nor a new reader holds any description text
        let reopened = try Store.open(at: directory.url)
        for source in [store, reopened] {
            #expect(source.library().videos.allSatisfy { $0.description == nil })
            #expect(source.library().videos.filter(\.hasDescription).count == (0..<400).filter { generator.video($0).description != nil }.count)
            // And every description reads back on demand as it was written
            try expectDescriptions(of: source, 0..<400)
        }
        #expect(try store.description(of: "unknownvid1") == nil)
    }

    @Test func anotherProcessesSyncIsReadOnDemandAfterARefreshAndAfterItsCompaction() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let reader = try Store.open(at: directory.url)
        let writer = try Store.open(at: directory.url)
        // When another writer appends videos with descriptions
        try writer.apply(StoreChange(videos: (0..<200).map(generator.video), channels: generator.channels()))
        #expect(try reader.refresh())
        // Then the reader reads them from that writer's journal
        try expectDescriptions(of: reader, 0..<200)
        // And after the writer compacts three times over (the journal moved into a backup, then pruned)
        for round in 0..<3 {
            try writer.apply(StoreChange(videos: [generator.video(200 + round)]))
            try writer.compact()
        }
        try expectDescriptions(of: reader, 0..<200)
        #expect(try reader.refresh())
        try expectDescriptions(of: reader, 0..<203)
        try expectDescriptions(of: writer, 0..<203)
    }

    @Test func aHubRowWithoutADescriptionKeepsTheOneAFeedGave() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        try store.apply(StoreChange(videos: [generator.video(3)], channels: generator.channels()))
        try store.compact()
        // When the hub sends the same video again, without a description, newer title
        var row = generator.video(3)
        row.description = nil
        row.title = "Renamed"
        try store.apply(StoreChange(videos: [row]))
        // Then the title changes and the description is the feed's, before and after a compaction
        for source in [store, try Store.open(at: directory.url)] {
            #expect(source.library().video(row.id)?.title == "Renamed")
            try expectDescriptions(of: source, [3])
        }
        try store.compact()
        try expectDescriptions(of: try Store.open(at: directory.url), [3])
    }

    @Test func aVideoRewrittenFromTheLibraryCarriesItsDescriptionAlong() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        try store.apply(StoreChange(videos: [generator.video(5)], channels: generator.channels()))
        // When a change re-writes the library's copy (holding a reference, not text) as a journal line
        let held = try #require(store.library().video(SyntheticLibrary.videoID(5)))
        #expect(held.descriptionReference != nil)
        try store.apply(StoreChange(videos: [held]))
        // Then the line carries the description's text: a new reader of that line alone reads it
        try expectDescriptions(of: try Store.open(at: directory.url), [5])
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix("journal-") }.max())
        let journal = try String(contentsOf: directory.url.appendingPathComponent(name), encoding: .utf8)
        #expect(journal.split(separator: "\n").count == 2)
        #expect(journal.split(separator: "\n").allSatisfy { $0.contains("\"description\":") })
    }
}
