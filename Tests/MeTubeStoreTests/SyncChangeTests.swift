import Foundation
import MeTubeCore
@testable import MeTubeStore
import Testing
import TestSupport

/// A write that changes the sync state journals only what changed (``SyncChange``), and reads
/// back as the state it was made for.
@Suite struct SyncChangeTests {
    /// `sync` after a run that fetched most of its channels again at `now`: most only succeeded
    /// again, some got a new ETag or failed, some are new, some are gone; the small fields change
    /// at random.
    private static func afterARun(_ sync: SyncSnapshot, at now: Date, _ generator: inout StoredValueGenerator) -> SyncSnapshot {
        var next = generator.chance(30) ? sync : generator.sync()
        next.deviceID = generator.chance(90) ? sync.deviceID : next.deviceID
        next.hubRegisteredChannelIDs = generator.chance(70) ? sync.hubRegisteredChannelIDs : generator.list(6) { $0.string() }
        next.channelFetches = [:]
        for (channelID, result) in sync.channelFetches {
            var result = result
            switch generator.below(10) {
            case 0: continue
            case 1: result = generator.channelFetch()
            case 2: result.failingSince = generator.date()
            default: result.lastSuccess = now
            }
            next.channelFetches[channelID] = result
        }
        for _ in 0..<generator.below(4) { next.channelFetches["new-" + generator.string()] = generator.channelFetch() }
        return next
    }

    private static func syncWithChannels(_ count: Int, _ generator: inout StoredValueGenerator) -> SyncSnapshot {
        var sync = generator.sync()
        for index in 0..<count { sync.channelFetches["UC\(index)-" + generator.string()] = generator.channelFetch() }
        return sync
    }

    @Test func aSyncChangeWrittenToTheJournalReadsBackAsTheStateItWasMadeFor() throws {
        // Given random sync states, each followed by the state a run leaves
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let journal = Journal(directory: directory.url.path)
        var generator = StoredValueGenerator(seed: 0x7379_6E63)
        var pairs: [(SyncSnapshot, SyncSnapshot)] = []
        for _ in 0..<300 {
            let before = Self.syncWithChannels(generator.below(40), &generator)
            pairs.append((before, Self.afterARun(before, at: generator.date(), &generator)))
        }
        // When each change between them is written as a journal line and read back
        for (before, after) in pairs {
            var change = StoreChange()
            change.syncChange = SyncChange(from: before, to: after)
            _ = try journal.append(change, generation: 0)
        }
        let read = try journal.read(0, from: 0)

        // Then every line reads back and, applied to the state it was made from, gives the new state
        #expect(read.damagedLines.isEmpty && read.notes.isEmpty && !read.hasNewerSchema, "\(read.notes.summary)")
        #expect(read.changes.count == pairs.count)
        for (index, (change, pair)) in zip(read.changes, pairs).enumerated() {
            var applied = pair.0
            try #require(change.syncChange).apply(to: &applied)
            #expect(applied == pair.1, "line \(index + 1)")
            if applied != pair.1 { break }
        }
    }

    @Test func aRunThatOnlySucceededAgainWritesOneTimeNotEveryChannel() throws {
        // Given a store that knows 2,000 channels' fetch results
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        let channelIDs = (0..<2_000).map { String(format: "UC%022d", $0) }
        try store.transaction { transaction in
            for id in channelIDs {
                transaction.sync.channelFetches[id] = ChannelFetchResult(lastSuccess: Date(timeIntervalSince1970: 1_700_000_000), etag: "\"etag-\(id)\"")
            }
        }
        let journalName = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).first { $0.hasPrefix("journal-") })
        let journalPath = directory.path(journalName)
        let before = try #require(try FileManager.default.attributesOfItem(atPath: journalPath)[.size] as? Int)

        // When a run finds every feed unchanged but two, which fail
        let now = Date(timeIntervalSince1970: 1_700_003_600)
        try store.transaction { transaction in
            for id in channelIDs.dropLast(2) { transaction.sync.channelFetches[id]?.lastSuccess = now }
            for id in channelIDs.suffix(2) {
                transaction.sync.channelFetches[id]?.failingSince = now
                transaction.sync.channelFetches[id]?.lastError = "HTTP 500"
            }
            transaction.sync.lastHubSync = now
        }

        // Then its line is a few hundred bytes, and the store reads back every channel's state
        let after = try #require(try FileManager.default.attributesOfItem(atPath: journalPath)[.size] as? Int)
        #expect(after - before < 1_024, "\(after - before) bytes")
        let reopened = try Store.open(at: directory.url)
        #expect(reopened.syncSnapshot() == store.syncSnapshot())
        #expect(reopened.syncSnapshot().channelFetches[channelIDs[0]]?.lastSuccess == now)
        #expect(reopened.syncSnapshot().channelFetches[channelIDs[1_999]]?.lastError == "HTTP 500")
        try reopened.compact()
        #expect(try Store.open(at: directory.url).syncSnapshot() == store.syncSnapshot())
    }

    @Test func aLineWithASyncChangeIsNewerThanAnOlderMetubeReads() throws {
        // Given a line carrying a sync change
        var change = StoreChange()
        change.syncChange = SyncChange(from: SyncSnapshot(deviceID: "a"), to: SyncSnapshot(deviceID: "b"))
        let object = try SnapshotEncoding.change(change).object

        // Then its version is one an older metube (which knows only whole sync states) opens read-only
        var notes = FieldNotes()
        let (_, version) = try SnapshotDecoding.change(object, notes: &notes)
        #expect(version > currentSchemaVersion)
        #expect(try SnapshotDecoding.change(SnapshotEncoding.change(StoreChange(removedMarkIDs: ["x"])).object, notes: &notes).1 == currentSchemaVersion)
    }
}
