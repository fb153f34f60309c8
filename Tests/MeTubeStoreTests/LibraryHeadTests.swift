import Foundation
import MeTubeCore
@testable import MeTubeStore
import Testing
import TestSupport

/// `head.json`: the newest rows of a store read without its large snapshots, exactly as the full
/// open would give them, or not at all.
@Suite struct LibraryHeadTests {
    /// Writes `generator`'s library straight into snapshots (no journal), as a restore does: fast
    /// enough for 200,000 videos in a test.
    private func snapshotStore(_ generator: SyntheticLibrary, in directory: TemporaryDirectory) throws -> Store {
        let store = try Store.open(at: directory.url)
        try store.replaceContents(with: generator.library(), sync: store.syncSnapshot())
        return store
    }

    /// Marks of the newest `count` videos, every third one watched.
    private func newestMarks(_ count: Int, of generator: SyntheticLibrary) -> [Mark] {
        (0..<count).compactMap { index in
            guard index % 3 == 0 else { return nil }
            return Mark(videoID: SyntheticLibrary.videoID(index), status: .watched, hlc: HybridTimestamp(millis: 1_800_000_000_000 + Int64(index)), deviceID: "test", syncState: .pending)
        }
    }

    @Test func theHeadOfA200kStoreGivesTheSameNewestRowsAsTheFullOpen() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given a 200,000-video store with marks on the newest videos and a new upload in the journal
        let generator = SyntheticLibrary(channelCount: 2_000, videoCount: 200_000, markCount: 100_000)
        let store = try snapshotStore(generator, in: directory)
        let upload = Video(id: "zzzzzzzzzzz", channelID: SyntheticLibrary.channelID(3), title: "Just uploaded", published: generator.newest.addingTimeInterval(60), duration: 61)
        try store.apply(StoreChange(marks: newestMarks(300, of: generator), videos: [upload]))
        // When its newest rows are read from the head, under each filter
        let head = try #require(Store.readHead(at: directory.url))
        let full = try Store.open(at: directory.url).library()
        // Then they are the full open's rows, newest first, the upload on top, and the head is small
        #expect(!head.isWholeLibrary)
        #expect(head.snapshotVideoCount == 200_000)
        #expect(head.library.videos.count <= Store.headVideoLimit + 1)
        #expect(head.library.videos.first?.id == upload.id)
        for filter in FeedFilter.allCases {
            for known in [true, false] {
                let rows = head.rows(FeedQuery(filter: filter), statusesKnown: known, limit: 100)
                if ![.skipped, .inProgress, .upcoming].contains(filter) { #expect(rows != nil, "\(filter)") }
                guard let rows else { continue }
                #expect(rows == FeedQuery(filter: filter).rows(in: full, statusesKnown: known, limit: 100), "\(filter)")
            }
        }
        // And a filter whose rows lie past the head (no skipped or partly watched video among the newest) is declined
        #expect(head.rows(FeedQuery(filter: .skipped), statusesKnown: true, limit: 100) == nil)
        #expect(full.videos.count == 200_001)
        #expect(head.library.channels.count == full.channels.count)
        // And a query the head cannot answer alone says so rather than giving a short list
        #expect(head.rows(FeedQuery(filter: .all), statusesKnown: true, limit: 5_000) == nil)
    }

    @Test func aSmallStoreIsWholeInItsHead() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(marks: 20), in: directory)
        try store.compact()
        try store.mark(SyntheticLibrary.videoID(2), as: .skipped)
        let head = try #require(Store.readHead(at: directory.url))
        #expect(head.isWholeLibrary)
        // (the head leaves descriptions out: a first screen shows none)
        #expect(head.library == store.library().withoutDescriptions)
        #expect(head.rows(FeedQuery(filter: .all), statusesKnown: true, limit: 1_000)?.count == 50)
    }

    @Test func theHeadIsIgnoredWhenItCannotAnswerExactly() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let generator = SyntheticLibrary(channelCount: 20, videoCount: Store.headVideoLimit * 2, markCount: 0)
        let store = try snapshotStore(generator, in: directory)
        #expect(Store.readHead(at: directory.url) != nil)
        // When the journal re-delivers an old video the head does not hold, dated inside its range
        var old = generator.video(Store.headVideoLimit + 10)
        old.published = generator.newest
        old.description = nil
        try store.apply(StoreChange(videos: [old]))
        // Then the head declines (the full library's older copy has fields the merge keeps)
        #expect(Store.readHead(at: directory.url) == nil)
        // And after a compaction it answers again, with the video where the full open puts it
        try store.compact()
        let head = try #require(Store.readHead(at: directory.url))
        #expect(head.library.video(old.id) == store.library().video(old.id))
        // When a snapshot is replaced behind the head's back (a restore by hand, a backup tool)
        let library = directory.url.appendingPathComponent("library.json")
        let bytes = try Data(contentsOf: library)
        try bytes.write(to: library)
        // Then the head is not used
        #expect(Store.readHead(at: directory.url) == nil)
    }

    @Test func newUploadsOfManySyncsAreReadFromTheHeadWhateverTheSnapshotsIDFilterSays() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given a store whose head holds part of its library
        let generator = SyntheticLibrary(channelCount: 20, videoCount: Store.headVideoLimit * 2, markCount: 0)
        let store = try snapshotStore(generator, in: directory)
        // When syncs bring 1,000 new uploads, newer than all (the snapshot's id filter, about 1 %
        // false positives, says of some of them that the snapshot may hold them)
        for sync in 0..<20 {
            let uploads = (0..<50).map { index in
                var video = generator.video(generator.videoCount + sync * 50 + index)
                video.published = generator.newest.addingTimeInterval(Double(sync * 50 + index + 1) * 60)
                return video
            }
            try store.apply(StoreChange(videos: uploads))
        }
        // Then the head still answers, with the full open's rows: each line says which of its
        // videos the library did not hold when it was written
        let head = try #require(Store.readHead(at: directory.url))
        let full = try Store.open(at: directory.url).library()
        let rows = try #require(head.rows(FeedQuery(filter: .all), statusesKnown: true, limit: 100))
        #expect(rows.map(\.video.id) == FeedQuery(filter: .all).rows(in: full, statusesKnown: true, limit: 100).map(\.video.id))
        #expect(rows.first?.video.published == generator.newest.addingTimeInterval(1_000 * 60))
    }

    @Test func aDamagedJournalLineSendsTheReaderToTheFullOpen() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(marks: 20), in: directory)
        try store.compact()
        try store.mark(SyntheticLibrary.videoID(2), as: .skipped)
        let journal = try #require(Journal(directory: directory.url.path).generations().last.map { Journal(directory: directory.url.path).path($0) })
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data("{\"v\":1,\"marks\":[{\"broken\n".utf8))
        try handle.close()
        #expect(Store.readHead(at: directory.url) == nil)
        #expect(!(try Store.open(at: directory.url).takeNotices().isEmpty))
    }

    @Test func aHeadEditedOnDiskIsIgnoredReportedAndWrittenAnew() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(marks: 20), in: directory)
        try store.compact()
        #expect(Store.headCondition(at: directory.url) == .current)
        // Given a head whose video id was edited in place, as `sed -i` would (same length)
        let path = directory.path(Store.headFileName)
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let id = SyntheticLibrary.videoID(1)
        #expect(original.contains(id))
        try original.replacingOccurrences(of: id, with: "INVENTEDID1").write(toFile: path, atomically: false, encoding: .utf8)
        // Then it is not read (the full open answers), and doctor names it as a problem
        #expect(Store.readHead(at: directory.url) == nil)
        #expect(Store.headCondition(at: directory.url) == .damaged)
        #expect(StoreDoctor.examine(directory.url).contains { $0.severity == .problem && $0.subject == Store.headFileName })
        // And the next compaction writes it anew
        try store.mark(SyntheticLibrary.videoID(2), as: .watched)
        try store.compact()
        #expect(Store.headCondition(at: directory.url) == .current)
        #expect(try #require(Store.readHead(at: directory.url)).library.video(id) != nil)
    }

    @Test func readingTheHeadNeverWrites() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given a store whose snapshots predate heads (no head.json)
        let store = try seededStore(smallLibrary(marks: 20), in: directory)
        try store.compact()
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent(Store.headFileName))
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        // When it is read through the head and opened
        #expect(Store.readHead(at: directory.url) == nil)
        _ = try Store.open(at: directory.url)
        // Then nothing was written
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == before)
    }
}
