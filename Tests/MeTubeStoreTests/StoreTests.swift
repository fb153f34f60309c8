import Foundation
import MeTubeCore
@testable import MeTubeStore
import Testing
import TestSupport

/// Opens a store in a fresh directory seeded with `library`.
func seededStore(_ library: SyntheticLibrary, in directory: TemporaryDirectory) throws -> Store {
    let store = try Store.open(at: directory.url)
    try store.apply(StoreChange(marks: library.marks(), videos: library.videos(), channels: library.channels()))
    return store
}

@Suite struct StoreTests {
    @Test func aMarkIsOnDiskWhenTheCallReturns() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given a store with videos
        let generator = smallLibrary()
        let store = try seededStore(generator, in: directory)
        let videoID = SyntheticLibrary.videoID(3)
        // When a mark is made
        let mark = try store.mark(videoID, as: .watched)
        // Then another instance opened afterwards sees it, pending, with this device's id
        let reopened = try Store.open(at: directory.url)
        #expect(reopened.library().marks[videoID] == mark)
        #expect(mark.syncState == .pending)
        #expect(mark.deviceID == store.deviceID)
        #expect(!store.deviceID.isEmpty)
    }

    @Test func compactionKeepsEverythingAndStartsANewJournal() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(marks: 20), in: directory)
        try store.mark(SyntheticLibrary.videoID(1), as: .skipped)
        let before = try store.describedLibrary()
        // When the store is compacted
        try store.compact()
        // Then a reopened store holds the same library, and a later mark goes to a fresh journal
        #expect(try Store.open(at: directory.url).describedLibrary() == before)
        try store.mark(SyntheticLibrary.videoID(2), as: .watched)
        let reopened = try Store.open(at: directory.url)
        #expect(reopened.library().marks[SyntheticLibrary.videoID(2)]?.status == .watched)
        #expect(reopened.library().videos.count == 50)
    }

    @Test func aFoldedJournalMovesIntoItsBackupAndABackupStillRecoversWithIt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given a store whose journal holds a whole library (as after a first sync)
        let store = try seededStore(SyntheticLibrary(channelCount: 20, videoCount: 5_000, markCount: 100), in: directory)
        let journals = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".jsonl") }
        #expect(journals.count == 1)
        let name = try #require(journals.first)
        let generation = try #require(Int(name.dropFirst("journal-".count).dropLast(".jsonl".count)))
        let folded = try #require(FileIO.identity(directory.path(name))).size
        // When it is compacted
        try store.compact()
        // Then the folded journal is no longer beside the snapshots but in the backup it follows
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains(name), "\(names)")
        #expect(FileIO.identity(directory.path("backups/\(generation)/\(name)"))?.size == folded)
        // And the live files are about the snapshots' size
        let size = { (name: String) in Double(FileIO.identity(directory.path(name))?.size ?? 0) }
        let snapshots = ["library.json", "marks.json", "sync.json"].map(size).reduce(0, +)
        let live = names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".jsonl") }.map(size).reduce(0, +)
        #expect(live < 1.5 * snapshots, "\(live) bytes live for \(snapshots) of snapshots")
        // When marks and another compaction follow, and a snapshot is then damaged
        try store.mark(SyntheticLibrary.videoID(3), as: .skipped)
        try store.compact()
        try store.mark(SyntheticLibrary.videoID(4), as: .watched)
        let expected = try store.describedLibrary()
        #expect(FileIO.identity(directory.path("backups/\(generation + 1)/journal-\(generation + 1).jsonl")) != nil)
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.path("library.json")))
        try data.prefix(data.count / 3).write(to: URL(fileURLWithPath: directory.path("library.json")))
        // Then it is recovered from the backup plus the journal moved into it, and the live one
        let reopened = try Store.open(at: directory.url)
        #expect(try reopened.describedLibrary() == expected)
        #expect(reopened.takeNotices().contains { $0.contains("recovered from backup \(generation + 1)") })
    }

    @Test func refreshPicksUpAnotherWritersMarks() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let first = try seededStore(smallLibrary(), in: directory)
        let second = try Store.open(at: directory.url)
        // When the second writer marks, and then compacts
        try second.mark(SyntheticLibrary.videoID(4), as: .watched)
        #expect(try first.refresh())
        #expect(first.library().marks[SyntheticLibrary.videoID(4)]?.status == .watched)
        try second.mark(SyntheticLibrary.videoID(5), as: .skipped)
        try second.compact()
        // Then the first sees both, and has nothing more to pick up afterwards
        #expect(try first.refresh())
        #expect(first.library().marks[SyntheticLibrary.videoID(5)]?.status == .skipped)
        #expect(try first.refresh() == false)
    }

    @Test func remarkingAConflictResolvesItAgainstTheServersVersion() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(), in: directory)
        let videoID = SyntheticLibrary.videoID(0)
        let theirs = ServerVersion(changeTag: "t2", status: .skipped, deviceID: "phone")
        try store.apply(StoreChange(marks: [Mark(videoID: videoID, status: .watched, hlc: HybridTimestamp(millis: 5), deviceID: store.deviceID,
                                               syncState: .conflict, base: ServerVersion(changeTag: "t1", status: .unwatched), theirs: theirs)]))
        // When the user marks the video again
        let mark = try store.mark(videoID, as: .watched)
        // Then the new mark is pending and based on the server's version
        #expect(mark.syncState == .pending)
        #expect(mark.base == theirs)
        #expect(mark.theirs == nil)
    }

    @Test func twoWritersMarkingAtOnceLoseNothing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let generator = smallLibrary(videos: 2_000)
        _ = try seededStore(generator, in: directory)
        let writers = try (0..<2).map { _ in try Store.open(at: directory.url) }
        // When two writers each mark 1,000 different videos at the same time
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask {
                    for offset in 0..<1_000 { try writer.mark(SyntheticLibrary.videoID(offset * 2 + index), as: .watched) }
                }
            }
            try await group.waitForAll()
        }
        // Then every mark is there
        let marks = try Store.open(at: directory.url).library().marks
        #expect(marks.count == 2_000)
        #expect(marks.values.allSatisfy { $0.status == .watched })
    }

    @Test func aLockHeldTooLongGivesALockTimeout() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url, options: StoreOptions(lockTimeout: .milliseconds(100)))
        // Given another holder of the lock
        let fd = open(directory.path("lock"), O_RDWR)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        // Then a write fails with a lock timeout, and nothing is written
        #expect(throws: StoreError.lockTimeout(path: directory.path("lock"), seconds: 0.1)) {
            try store.mark(SyntheticLibrary.videoID(1), as: .watched)
        }
        flock(fd, LOCK_UN)
        #expect(try Store.open(at: directory.url).library().marks.isEmpty)
    }
}
