import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// The store's failure behaviour through the `metube` binary: full disks, read-only disks, a
/// restore that cannot finish.
@Suite struct CLIStoreFaultTests {
    let metube = ProductBinary.url("metube")
    static let mountMessage = "needs root to mount a small tmpfs; skipped on this machine"

    private func fileSizes(_ directory: URL) throws -> [String: Int] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix("lock") }
        return try Dictionary(uniqueKeysWithValues: names.map { name in
            (name, try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int ?? -1)
        })
    }

    private func seed(_ directory: URL, videos: Int = 100) throws {
        let generator = smallLibrary(videos: videos)
        let store = try Store.open(at: directory)
        // (without descriptions: the full-disk cases size their scratch disk for the rows alone)
        try store.apply(StoreChange(videos: generator.library().videos, channels: generator.channels()))
        try store.mark(SyntheticLibrary.videoID(3), as: .watched)
    }

    private func tearTheJournalTail(_ directory: URL) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        let handle = try FileHandle(forWritingTo: directory.appendingPathComponent(names.last!))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"v":1,"marks":[{"vid"#.utf8))
        try handle.close()
    }

    @Test func aRestoreThatRunsOutOfSpacePartWayChangesNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.url.appendingPathComponent("store")
        try seed(store)
        let before = try Store.open(at: store).describedLibrary()
        let sizes = try fileSizes(store)
        // Given a backup whose library is small but whose 20,000 marks need more than 1 MiB
        let source = directory.url.appendingPathComponent("source")
        let generator = smallLibrary(videos: 10)
        let marks = (0..<20_000).map { Mark(videoID: SyntheticLibrary.videoID(100_000 + $0), status: .watched, hlc: HybridTimestamp(millis: 1), deviceID: "other") }
        try Store.open(at: source).apply(StoreChange(marks: marks, videos: generator.videos(), channels: generator.channels()))
        let backup = directory.path("backup.json")
        try Store.open(at: source).exportBackup().write(to: URL(fileURLWithPath: backup))
        // When it is restored where no file may grow past 1 MiB
        let script = "ulimit -f 1024; \"$0\" restore \"$1\" --data-dir \"$2\"; echo \"restore=$?\""
        let outcome = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script, metube.path, backup, store.path])
        // Then it exits 74 saying nothing was changed, and indeed nothing was
        #expect(outcome.stdout.contains("restore=74"), "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stderr.contains("nothing was changed"))
        #expect(try fileSizes(store) == sizes)
        let after = try Store.open(at: store)
        #expect(try after.describedLibrary() == before)
        #expect(after.takeNotices().isEmpty)
        #expect(try runProcess(metube, ["doctor", "--data-dir", store.path]).status == 0)
        // And with room, the same restore applies all of it
        #expect(try runProcess(metube, ["restore", backup, "--data-dir", store.path]).status == 0)
        let restored = try Store.open(at: store).library()
        #expect(restored.videos.count == 10)
        #expect(restored.marks.count == 20_000)
    }

    @Test(.enabled(if: ScratchMount.isAvailable, Comment(rawValue: mountMessage)))
    func readingCommandsWorkOnAFullDiskWithATornJournalTail() throws {
        let mount = try ScratchMount(sizeKiB: 1024)
        defer { mount.remove() }
        let store = mount.url.appendingPathComponent("store")
        try seed(store)
        try tearTheJournalTail(store)
        try mount.fill()
        let options = ["--data-dir", store.path, "--config", mount.url.appendingPathComponent("none.toml").path]
        let outside = TemporaryDirectory()
        defer { outside.remove() }
        // When the disk is full, the reading commands still work
        for arguments in [["status"], ["list", "--json"], ["export", "--backup", outside.path("backup.json")], ["doctor"]] {
            let outcome = try runProcess(metube, arguments + options)
            #expect(outcome.status == 0 || (arguments == ["doctor"] && outcome.status == 1), "\(arguments): \(outcome.status) \(outcome.stderr)")
        }
        #expect(try Store.validateBackup(Data(contentsOf: URL(fileURLWithPath: outside.path("backup.json")))).videoCount == 100)
        // And a write fails cleanly with 74, then succeeds (repairing the tail) once there is room
        // (a mark's line is smaller than a page, and tmpfs gives a file whole pages: the journal's
        // last page may have room for it on a full disk, so its growth is also capped at its size)
        let journal = try #require(try FileManager.default.contentsOfDirectory(atPath: store.path).filter { $0.hasPrefix("journal-") }.max())
        let size = try #require(try FileManager.default.attributesOfItem(atPath: store.appendingPathComponent(journal).path)[.size] as? Int)
        let script = "ulimit -f \(size / 1024); exec \"$0\" \"$@\""
        let full = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script, metube.path, "mark", SyntheticLibrary.videoID(4), "watched"] + options)
        #expect(full.status == 74, "\(full.stderr)")
        mount.unfill()
        #expect(try runProcess(metube, ["mark", SyntheticLibrary.videoID(4), "watched"] + options).status == 0)
        let reopened = try Store.open(at: store)
        #expect(reopened.takeNotices().isEmpty)
        #expect(reopened.library().marks.count == 2)
    }

    @Test(.enabled(if: ScratchMount.isAvailable, Comment(rawValue: mountMessage)))
    func readingCommandsWorkOnAReadOnlyDisk() throws {
        let mount = try ScratchMount(sizeKiB: 1024)
        defer { mount.remove() }
        let store = mount.url.appendingPathComponent("store")
        try seed(store)
        try tearTheJournalTail(store)
        try mount.remountReadOnly()
        let options = ["--data-dir", store.path, "--config", mount.url.appendingPathComponent("none.toml").path]
        for arguments in [["status"], ["list"], ["channels", "list"]] {
            let outcome = try runProcess(metube, arguments + options)
            #expect(outcome.status == 0, "\(arguments): \(outcome.status) \(outcome.stderr)")
        }
        let write = try runProcess(metube, ["mark", SyntheticLibrary.videoID(4), "watched"] + options)
        #expect(write.status == 74, "\(write.stderr)")
        #expect(write.stderr.contains("could not write"))
    }
}
