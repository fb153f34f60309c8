import Foundation
import MeTubeCore
@testable import MeTubeStore
import Testing
import TestSupport

@Suite struct StoreRecoveryTests {
    /// A store with a compacted snapshot (so a backup exists after the second compaction) and
    /// marks in the journal since.
    private func storeWithHistory(_ directory: TemporaryDirectory) throws -> Library {
        let store = try seededStore(smallLibrary(marks: 10), in: directory)
        try store.compact()
        try store.mark(SyntheticLibrary.videoID(0), as: .skipped)
        try store.compact()
        try store.mark(SyntheticLibrary.videoID(1), as: .watched)
        return try store.describedLibrary()
    }

    @Test(arguments: ["library.json", "marks.json", "sync.json"])
    func aTruncatedSnapshotIsRecoveredFromBackupAndJournalAndKeptAsideAtTheNextWrite(file: String) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let expected = try storeWithHistory(directory)
        let deviceID = try Store.open(at: directory.url).deviceID
        // Given a snapshot cut in half
        let data = try Data(contentsOf: URL(fileURLWithPath: directory.path(file)))
        let damaged = data.prefix(data.count / 2)
        try damaged.write(to: URL(fileURLWithPath: directory.path(file)))
        // When the store opens
        let store = try Store.open(at: directory.url)
        // Then nothing is lost, and the user is told
        #expect(try store.describedLibrary() == expected)
        #expect(store.deviceID == deviceID)
        let notices = store.takeNotices()
        #expect(notices.contains { $0.contains(file) && $0.contains("recovered from backup") })
        #expect(store.takeNotices().isEmpty)
        // And the next write keeps the damaged file aside, byte for byte, and writes a good one
        try store.mark(SyntheticLibrary.videoID(7), as: .skipped)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        let copy = try #require(names.first { $0.hasPrefix("\(file).corrupt-") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path(copy))) == damaged)
        let reopened = try Store.open(at: directory.url)
        #expect(reopened.takeNotices().isEmpty)
        #expect(reopened.library().marks[SyntheticLibrary.videoID(7)]?.status == .skipped)
        #expect(reopened.deviceID == deviceID)
    }

    @Test func garbageWithoutABackupIsRebuiltFromTheJournal() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        try store.mark("dQw4w9WgXcQ", as: .watched)
        try Data([0xFF, 0x00, 0x13, 0x37]).write(to: URL(fileURLWithPath: directory.path("marks.json")))
        // When the store opens over a garbage marks snapshot
        let reopened = try Store.open(at: directory.url)
        // Then the journal still provides the mark, and the user is told there was no backup
        #expect(reopened.library().marks["dQw4w9WgXcQ"]?.status == .watched)
        #expect(reopened.takeNotices().contains { $0.contains("marks.json") && $0.contains("no usable backup") })
    }

    @Test func aTornLastJournalLineIsIgnoredReportedAndCutBeforeTheNextAppend() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(), in: directory)
        try store.mark(SyntheticLibrary.videoID(1), as: .watched)
        let journal = Journal(directory: directory.url.path)
        let path = journal.path(store.library().marks.isEmpty ? 0 : journal.generations().last!)
        // Given half a line at the end of the journal, as a killed writer leaves it
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"v":1,"marks":[{"videoID":"x"#.utf8))
        try handle.close()
        // When the store opens and marks again
        let reopened = try Store.open(at: directory.url)
        #expect(reopened.takeNotices().contains { $0.contains("torn last line") })
        #expect(reopened.library().marks[SyntheticLibrary.videoID(1)]?.status == .watched)
        try reopened.mark(SyntheticLibrary.videoID(2), as: .skipped)
        // Then the torn bytes are gone and both marks read back cleanly
        let again = try Store.open(at: directory.url)
        #expect(again.takeNotices().isEmpty)
        #expect(again.library().marks[SyntheticLibrary.videoID(2)]?.status == .skipped)
        #expect(again.library().marks.count == 2)
    }

    @Test func aStoreFromANewerSchemaOpensReadOnlyAndSaysWhy() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(), in: directory)
        try store.compact()
        let path = directory.path("library.json")
        let text = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: #""schemaVersion":1"#, with: #""schemaVersion":99,"futureField":{"a":[1,2]}"#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        // When a store written by a newer metube opens
        let reopened = try Store.open(at: directory.url)
        // Then it reads, refuses writes, and says why
        #expect(reopened.library().videos.count == 50)
        #expect(reopened.readOnlyReason?.contains("schema version 99") == true)
        #expect(throws: StoreError.self) { try reopened.mark(SyntheticLibrary.videoID(1), as: .watched) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }
}
