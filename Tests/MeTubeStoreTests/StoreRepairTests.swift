import Foundation
import MeTubeCore
@testable import MeTubeStore
import Testing
import TestSupport

/// Damage is never destroyed by a read: opening and reading write nothing, every damaged input is
/// kept as a `.corrupt-<time>` copy when the next write repairs it, and one bad field costs only
/// that field.
@Suite struct StoreRepairTests {
    /// The names and contents of every file under `directory`.
    private func contents(_ directory: TemporaryDirectory) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: directory.url.path)
        while let name = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: directory.path(name), isDirectory: &isDirectory)
            result[name] = try isDirectory.boolValue ? Data() : Data(contentsOf: URL(fileURLWithPath: directory.path(name)))
        }
        return result
    }

    private func journalPath(_ directory: TemporaryDirectory) -> String {
        let journal = Journal(directory: directory.url.path)
        return journal.path(journal.generations().last ?? 0)
    }

    private func replaceLine(_ index: Int, in path: String, _ transform: (String) -> String) throws {
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[index] = transform(lines[index])
        try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
    }

    @Test func openingAndReadingADamagedStoreWriteNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(marks: 10), in: directory)
        try store.compact()
        try store.mark(SyntheticLibrary.videoID(1), as: .watched)
        try store.compact()
        for index in 2..<5 { try store.mark(SyntheticLibrary.videoID(index), as: .skipped) }
        // Given a damaged marks snapshot, a damaged middle journal line and a torn journal tail
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: directory.path("marks.json")))
        try replaceLine(1, in: journalPath(directory)) { _ in "{\"v\":1,\"marks\":[" }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journalPath(directory)))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"v":1,"ma"#.utf8))
        try handle.close()
        let before = try contents(directory)
        // When it is opened, read, refreshed and exported
        let reopened = try Store.open(at: directory.url)
        #expect(reopened.library().marks[SyntheticLibrary.videoID(4)]?.status == .skipped)
        _ = try reopened.refresh()
        _ = try reopened.exportBackup()
        // Then it says what it found, and not one byte on disk changed
        let notices = reopened.takeNotices()
        #expect(notices.contains { $0.contains("marks.json") }, "\(notices)")
        #expect(notices.contains { $0.contains("damaged line") }, "\(notices)")
        #expect(try contents(directory) == before)
    }

    @Test func aCompactionDeletesTheTemporaryFilesOfWritersThatAreGone() throws {
        // Given a store beside temporary files of a process that has exited, of this process and
        // of a running one (the one that started this), and files whose names only look like them
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(marks: 10), in: directory)
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        let isDeleted = [
            "library.json.tmp-\(exited.processIdentifier)-12345": true,
            "marks.json.previous-\(exited.processIdentifier)-7": true,
            "library.json.tmp-\(getpid())-1": false,
            "sync.json.tmp-\(getppid())-2": false,
            "notes.tmp-draft": false,
            "library.json.tmp-\(exited.processIdentifier)-12345-copy": false,
        ]
        for name in isDeleted.keys { try Data("x".utf8).write(to: directory.url.appendingPathComponent(name)) }
        // When it compacts
        try store.compact()
        // Then only the files of the process that is gone are deleted
        for (name, deleted) in isDeleted {
            #expect(FileManager.default.fileExists(atPath: directory.path(name)) == !deleted, "\(name)")
        }
    }

    @Test func aDamagedMiddleLineIsKeptAsACorruptCopyThroughCompactions() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(), in: directory)
        try store.compact()
        for index in 0..<3 { try store.mark(SyntheticLibrary.videoID(index), as: .watched) }
        // Given the middle one of three mark lines damaged
        let path = journalPath(directory)
        try replaceLine(1, in: path) { String($0.prefix(30)) + "#" + String($0.dropFirst(31)) }
        let damaged = try Data(contentsOf: URL(fileURLWithPath: path))
        // When it is listed, then written to and compacted three times
        let reopened = try Store.open(at: directory.url)
        #expect(reopened.library().marks[SyntheticLibrary.videoID(1)] == nil)
        #expect(reopened.takeNotices().contains { $0.contains("damaged line") })
        try reopened.mark(SyntheticLibrary.videoID(9), as: .skipped)
        for _ in 0..<3 { try reopened.compact() }
        // Then the damaged journal is kept, byte for byte, as a .corrupt copy
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        let copies = names.filter { $0.hasPrefix((path as NSString).lastPathComponent + ".corrupt-") }
        #expect(copies.count == 1, "\(names)")
        #expect(try copies.first.map { try Data(contentsOf: URL(fileURLWithPath: directory.path($0))) } == damaged)
        #expect(try Store.open(at: directory.url).takeNotices().isEmpty)
    }

    @Test func aValidJSONLineAlteredInTheMiddleOfTheJournalIsDetected() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(), in: directory)
        try store.compact()
        for index in 0..<3 { try store.mark(SyntheticLibrary.videoID(index), as: .watched) }
        // Given the middle mark changed from watched to skipped: still valid JSON
        try replaceLine(1, in: journalPath(directory)) { $0.replacingOccurrences(of: #""status":"watched""#, with: #""status":"skipped""#) }
        // When the store opens
        let reopened = try Store.open(at: directory.url)
        // Then the altered line is reported and not trusted, and the lines around it are intact
        #expect(reopened.takeNotices().contains { $0.contains("damaged line") && $0.contains("line 2") })
        #expect(reopened.library().marks[SyntheticLibrary.videoID(1)] == nil)
        #expect(reopened.library().marks[SyntheticLibrary.videoID(0)]?.status == .watched)
        #expect(reopened.library().marks[SyntheticLibrary.videoID(2)]?.status == .watched)
    }

    @Test func aLineWrittenBeforeChecksumsStillReads() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let line = #"{"marks":[{"deviceID":"old","hlc":{"counter":0,"millis":5},"status":"watched","syncState":"pending","videoID":"dQw4w9WgXcQ"}],"v":1}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: directory.path("journal-0.jsonl")))
        let store = try Store.open(at: directory.url)
        #expect(store.takeNotices().isEmpty)
        #expect(store.library().marks["dQw4w9WgXcQ"]?.status == .watched)
    }

    @Test func oneBadFieldCostsThatFieldAloneAndTheLineIsKeptAside() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given a line whose one video has a duration that is not a number and whose mark has an
        // unknown sync state, next to a good video and a sync token
        let line = #"{"v":1,"videos":[{"id":"aaaaaaaaaaa","channelID":"UC","title":"bad duration","published":0,"duration":"long"},{"id":"bbbbbbbbbbb","channelID":"UC","title":"good","published":0,"duration":61}],"marks":[{"videoID":"aaaaaaaaaaa","status":"watched","hlc":{"millis":1,"counter":0},"deviceID":"d","syncState":"sideways"}],"sync":{"deviceID":"d","hubWatermark":1e400,"statusSyncToken":"token-1"}}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: directory.path("journal-0.jsonl")))
        // When the store opens
        let store = try Store.open(at: directory.url)
        // Then everything else in the line is kept, the bad fields get defaults, and the user is told
        let library = store.library()
        #expect(library.video("aaaaaaaaaaa")?.title == "bad duration")
        #expect(library.video("aaaaaaaaaaa")?.duration == nil)
        #expect(library.video("bbbbbbbbbbb")?.duration == 61)
        #expect(library.marks["aaaaaaaaaaa"]?.syncState == .pending)
        #expect(store.syncSnapshot().markSyncToken == "token-1")
        #expect(store.syncSnapshot().hubWatermark == 0)
        let notices = store.takeNotices()
        #expect(notices.contains { $0.contains("journal-0.jsonl") && $0.contains("video.duration") }, "\(notices)")
        // And the next write keeps the original line aside before folding the defaults in
        try store.mark("bbbbbbbbbbb", as: .skipped)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(names.contains { $0.hasPrefix("journal-0.jsonl.corrupt-") }, "\(names)")
        #expect(try Store.open(at: directory.url).takeNotices().isEmpty)
    }

    @Test func aCompactionStoppedAfterCarryingLinesKeepsTheirOrder() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try seededStore(smallLibrary(), in: directory)
        try store.compact()
        let videoID = SyntheticLibrary.videoID(1)
        try store.mark(videoID, as: .watched)
        // Given a compaction that stopped after carrying that line into the next journal
        let journal = Journal(directory: directory.url.path)
        let generation = journal.generations().last!
        try Data(contentsOf: URL(fileURLWithPath: journal.path(generation))).write(to: URL(fileURLWithPath: journal.path(generation + 1)))
        // When another process marks the same video again
        try Store.open(at: directory.url).mark(videoID, as: .skipped)
        // Then the later mark wins, now and after a compaction
        #expect(try Store.open(at: directory.url).library().marks[videoID]?.status == .skipped)
        try Store.open(at: directory.url).compact()
        #expect(try Store.open(at: directory.url).library().marks[videoID]?.status == .skipped)
    }
}
