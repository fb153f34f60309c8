import Foundation
import MeTubeCore
@testable import MeTubeStore
import Testing
import TestSupport

/// The watch-later queue is an additive part of the store: older stores open without one, an
/// entry survives the journal, a compaction and a backup, and marking a video done takes it out.
@Suite("Watch-later queue in the store")
struct QueueStoreTests {
    @Test func videosQueueInTheOrderAddedAndKeepTheirPlaceWhenAddedAgain() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        // Given three videos added in one write and one more later
        try store.transaction { for id in ["ccccccccccc", "aaaaaaaaaaa", "bbbbbbbbbbb"] { $0.addToQueue(id) } }
        let again = try store.transaction { $0.addToQueue("ccccccccccc") }
        try store.transaction { $0.addToQueue("ddddddddddd") }
        // Then the queue is in the order added (not by id), and adding again changed nothing
        #expect(again == nil)
        #expect(store.library().queuedVideoIDs == ["ccccccccccc", "aaaaaaaaaaa", "bbbbbbbbbbb", "ddddddddddd"])
        #expect(try Store.open(at: directory.url).library().queuedVideoIDs == store.library().queuedVideoIDs)
    }

    @Test func markingWatchedOrSkippedTakesAVideoOutAndUnwatchedDoesNot() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        try store.transaction { for id in ["aaaaaaaaaaa", "bbbbbbbbbbb", "ccccccccccc"] { $0.addToQueue(id) } }
        try store.mark("aaaaaaaaaaa", as: .watched)
        try store.mark("bbbbbbbbbbb", as: .skipped)
        try store.mark("ccccccccccc", as: .unwatched)
        #expect(store.library().queuedVideoIDs == ["ccccccccccc"])
        // The removals are entries of their own, so they sync
        #expect(store.library().queue["aaaaaaaaaaa"]?.isQueued == false)
        #expect(store.library().queue["aaaaaaaaaaa"]?.syncState == .pending)
        // And marking unwatched again does not bring a video back
        try store.mark("aaaaaaaaaaa", as: .unwatched)
        #expect(store.library().queuedVideoIDs == ["ccccccccccc"])
    }

    @Test func aBatchOfMarksTakesWatchedAndSkippedVideosOut() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        try store.transaction { for id in ["aaaaaaaaaaa", "bbbbbbbbbbb", "ccccccccccc"] { $0.addToQueue(id) } }
        try store.transaction { $0.mark(["aaaaaaaaaaa", "ccccccccccc"], as: .skipped) }
        try store.transaction { $0.mark(["bbbbbbbbbbb"], as: .unwatched) }
        #expect(store.library().queuedVideoIDs == ["bbbbbbbbbbb"])
        #expect(store.library().queue["ccccccccccc"]?.isQueued == false)
    }

    @Test func aWatchedMarkFromAnotherDeviceAfterQueueingTakesTheVideoOut() {
        // Given a video queued at 10 and a synced watched mark from an iOS device at 20
        var library = Library()
        library.apply(QueueEntry(videoID: "v", queuedAt: 10, hlc: HybridTimestamp(millis: 10), deviceID: "laptop"))
        library.apply(Mark(videoID: "v", status: .watched, hlc: HybridTimestamp(millis: 20), deviceID: "", syncState: .synced))
        #expect(library.queuedVideoIDs.isEmpty)
        // When it is queued again later, it is back
        library.apply(QueueEntry(videoID: "v", queuedAt: 30, hlc: HybridTimestamp(millis: 30), deviceID: "laptop"))
        #expect(library.queuedVideoIDs == ["v"])
    }

    @Test func swappingReordersAndTheNewerEntryWins() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        try store.transaction { for id in ["aaaaaaaaaaa", "bbbbbbbbbbb", "ccccccccccc"] { $0.addToQueue(id) } }
        try store.transaction { $0.swapInQueue("ccccccccccc", "bbbbbbbbbbb") }
        #expect(store.library().queuedVideoIDs == ["aaaaaaaaaaa", "ccccccccccc", "bbbbbbbbbbb"])
        // An older entry never replaces a newer one
        var library = store.library()
        let current = try #require(library.queue["aaaaaaaaaaa"])
        library.apply(QueueEntry(videoID: "aaaaaaaaaaa", queuedAt: nil, hlc: HybridTimestamp(millis: current.hlc.millis - 1), deviceID: "zzz"))
        #expect(library.queue["aaaaaaaaaaa"] == current)
    }

    @Test func aStoreWrittenBeforeTheQueueOpensWithNoneAndNoNotice() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let line = #"{"marks":[{"deviceID":"d","hlc":{"counter":0,"millis":5},"status":"watched","syncState":"pending","videoID":"v1"}],"v":1}"#
        try Data((line + "\n").utf8).write(to: directory.url.appendingPathComponent("journal-0.jsonl"))
        let store = try Store.open(at: directory.url)
        #expect(store.takeNotices().isEmpty)
        #expect(store.library().queue.isEmpty)
    }

    @Test func anEntrySurvivesTheJournalACompactionAndABackup() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        let added = try #require(try store.transaction { $0.addToQueue("aaaaaaaaaaa") })
        #expect(try Store.open(at: directory.url).library().queue["aaaaaaaaaaa"] == added)
        try store.compact()
        let compacted = try Store.open(at: directory.url)
        #expect(compacted.takeNotices().isEmpty)
        #expect(compacted.library().queue["aaaaaaaaaaa"] == added)
        let other = TemporaryDirectory()
        defer { other.remove() }
        let restored = try Store.open(at: other.url)
        try restored.restore(from: try compacted.exportBackup())
        #expect(restored.library().queuedVideoIDs == ["aaaaaaaaaaa"])
    }

    @Test func aQueuedAtThatIsNotADateInAJournalLineIsANoteAndNotAQueuedVideo() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given journal lines with a queuedAt past the year 9999, one that is a string, and a good one
        let lines = [
            #"{"queue":[{"deviceID":"d","hlc":{"counter":0,"millis":5},"queuedAt":9999999999999999,"syncState":"pending","videoID":"aaaaaaaaaaa"}],"v":1}"#,
            #"{"queue":[{"deviceID":"d","hlc":{"counter":0,"millis":5},"queuedAt":"tomorrow","syncState":"pending","videoID":"bbbbbbbbbbb"}],"v":1}"#,
            #"{"queue":[{"deviceID":"d","hlc":{"counter":0,"millis":5},"queuedAt":253402300799999,"syncState":"synced","videoID":"ccccccccccc"}],"v":1}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.url.appendingPathComponent("journal-0.jsonl"))
        let store = try Store.open(at: directory.url)
        // Then the two bad ones are not queued, the store says so, and the good one reads back
        #expect(!store.takeNotices().isEmpty)
        #expect(store.library().queuedVideoIDs == ["ccccccccccc"])
        #expect(store.library().queue["ccccccccccc"]?.queuedAt == QueueEntry.maxMillis)
    }
}
