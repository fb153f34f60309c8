import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// The `metube` binary against real store directories, as scripts and cron use it.
@Suite struct CLIStoreTests {
    let metube = ProductBinary.url("metube")

    private func seeded(_ directory: TemporaryDirectory, videos: Int = 100) throws {
        let generator = smallLibrary(videos: videos)
        let store = try Store.open(at: directory.url)
        try store.apply(StoreChange(videos: generator.videos(), channels: generator.channels()))
    }

    @Test func twoProcessesMarkingAThousandEachLoseNothing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try seeded(directory, videos: 2_000)
        // When two processes each mark 1,000 different videos at the same time
        let outcomes = try await withThrowingTaskGroup(of: ProcessOutcome.self) { group in
            for half in 0..<2 {
                let input = (0..<1_000).map { "\(SyntheticLibrary.videoID($0 * 2 + half)) \(half == 0 ? "watched" : "skipped")" }.joined(separator: "\n")
                group.addTask { try runProcess(metube, ["mark", "--stdin", "--data-dir", directory.url.path], input: input) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Then both succeed and all 2,000 marks are in the store
        #expect(outcomes.map(\.status) == [0, 0], "\(outcomes.map(\.stderr))")
        let marks = try Store.open(at: directory.url).library().marks
        #expect(marks.count == 2_000)
        #expect(marks[SyntheticLibrary.videoID(0)]?.status == .watched)
        #expect(marks[SyntheticLibrary.videoID(1)]?.status == .skipped)
    }

    @Test func aBusyStoreGivesAClearMessageAndExitCode75() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try seeded(directory)
        // Given another process holding the store's lock
        let fd = open(directory.path("lock"), O_RDWR)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        // When a mark is attempted with a short lock timeout
        let outcome = try runProcess(metube, ["mark", SyntheticLibrary.videoID(1), "watched", "--data-dir", directory.url.path],
                                     environment: ["METUBE_LOCK_TIMEOUT": "0.3"])
        flock(fd, LOCK_UN)
        // Then it exits 75 and says the store is busy
        #expect(outcome.status == 75)
        #expect(outcome.stderr.contains("the store is busy"))
    }

    @Test func aFullDiskLeavesThePreviousStateIntactAndExits74() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try seeded(directory)
        let before = try Store.open(at: directory.url)
        try before.mark(SyntheticLibrary.videoID(1), as: .watched)
        let sizesBefore = try fileSizes(directory)
        // When writes beyond 1 KiB per file fail (as on a full disk) during a mark and a compaction
        let script = "ulimit -f 1; \"$0\" mark \(SyntheticLibrary.videoID(2)) skipped --data-dir \"$1\"; echo \"mark=$?\"; \"$0\" compact --data-dir \"$1\"; echo \"compact=$?\""
        let outcome = try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script, metube.path, directory.url.path])
        // Then both report an I/O error, and the store is exactly as before
        #expect(outcome.stdout.contains("mark=74"), "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stdout.contains("compact=74"))
        #expect(outcome.stderr.contains("could not write"))
        #expect(try fileSizes(directory) == sizesBefore)
        let after = try Store.open(at: directory.url)
        #expect(try after.describedLibrary() == before.describedLibrary())
        #expect(after.takeNotices().isEmpty)
    }

    private func fileSizes(_ directory: TemporaryDirectory) throws -> [String: Int] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".json") || $0.hasSuffix(".jsonl") }
        return try Dictionary(uniqueKeysWithValues: names.map { ($0, try FileManager.default.attributesOfItem(atPath: directory.path($0))[.size] as! Int) })
    }

    @Test func badArgumentsAndUnknownVideosGetDistinctExitCodes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try seeded(directory)
        let dataDir = ["--data-dir", directory.url.path]
        #expect(try runProcess(metube, ["mark", "not-an-id!", "watched"] + dataDir).status == 65)
        #expect(try runProcess(metube, ["mark", "zzzzzzzzzzz", "watched"] + dataDir).status == 4)
        #expect(try runProcess(metube, ["mark", SyntheticLibrary.videoID(1), "seen"] + dataDir).status == 64)
        #expect(try runProcess(metube, ["channels", "add", "UCshort"] + dataDir).status == 65)
        #expect(try runProcess(metube, ["restore", directory.path("missing.json")] + dataDir).status == 66)
    }

    @Test func listJSONHasTheDocumentedFields() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try seeded(directory)
        try Store.open(at: directory.url).mark(SyntheticLibrary.videoID(0), as: .watched)
        // When the feed is listed as JSON with all statuses
        let outcome = try runProcess(metube, ["list", "--filter", "all", "--limit", "2", "--json", "--data-dir", directory.url.path])
        let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let first = (object?["videos"] as? [[String: Any]])?.first
        // Then the newest video comes first with its mark and sync state
        #expect(object?["count"] as? Int == 2)
        #expect(first?["videoId"] as? String == SyntheticLibrary.videoID(0))
        #expect(first?["status"] as? String == "watched")
        #expect(first?["syncState"] as? String == "pending")
        let keys = Set(first?.keys.map { $0 } ?? [])
        #expect(keys.isSuperset(of: ["channelId", "channelTitle", "title", "published", "url", "isShort"]))
    }

    @Test func exportedBackupRestoresAndATruncatedOneIsRefusedWithoutChanges() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try seeded(directory)
        let store = try Store.open(at: directory.url)
        try store.mark(SyntheticLibrary.videoID(3), as: .skipped)
        let dataDir = ["--data-dir", directory.url.path]
        let backup = directory.path("backup.json")
        #expect(try runProcess(metube, ["export", "--backup", backup] + dataDir).status == 0)
        // Given later changes, and a truncated copy of the backup
        try store.mark(SyntheticLibrary.videoID(3), as: .watched)
        let text = try String(contentsOfFile: backup, encoding: .utf8)
        try String(text.prefix(text.count - 200)).write(toFile: directory.path("truncated.json"), atomically: true, encoding: .utf8)
        // Then the truncated one is refused and changes nothing
        let refused = try runProcess(metube, ["restore", directory.path("truncated.json")] + dataDir)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("nothing was changed"))
        #expect(try Store.open(at: directory.url).library().marks[SyntheticLibrary.videoID(3)]?.status == .watched)
        // And the real one brings the earlier state back
        #expect(try runProcess(metube, ["restore", backup] + dataDir).status == 0)
        let restored = try Store.open(at: directory.url).library()
        #expect(restored.marks[SyntheticLibrary.videoID(3)]?.status == .skipped)
        #expect(restored.videos.count == 100)
    }

    @Test func importReportsAddedPresentAndRejectedAndRefusesGarbage() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let dataDir = ["--data-dir", directory.url.path]
        // Given a Takeout CSV with two good rows, one bad id and a channel already followed
        let csv = """
            Channel Id,Channel Url,Channel Title
            UCBJycsmduvYEL83R_U4JriQ,http://www.youtube.com/channel/UCBJycsmduvYEL83R_U4JriQ,Marques Brownlee
            UC9PBzalIcEQCsiIkq36PyUA,http://www.youtube.com/channel/UC9PBzalIcEQCsiIkq36PyUA,Digital Foundry
            UCnot-an-id,http://www.youtube.com/channel/UCnot-an-id,Broken
            """
        try csv.write(toFile: directory.path("subscriptions.csv"), atomically: true, encoding: .utf8)
        #expect(try runProcess(metube, ["channels", "add", "UC9PBzalIcEQCsiIkq36PyUA"] + dataDir).status == 0)
        // When it is imported
        let outcome = try runProcess(metube, ["import", directory.path("subscriptions.csv"), "--json"] + dataDir)
        // Then the report counts each kind and names the bad line
        let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(report?["format"] as? String == "takeoutCSV")
        #expect(report?["added"] as? Int == 1)
        #expect(report?["alreadyPresent"] as? Int == 1)
        let rejected = report?["rejected"] as? [[String: Any]]
        #expect(rejected?.count == 1)
        #expect((rejected?.first?["location"] as? String)?.contains("4") == true)
        #expect(try Store.open(at: directory.url).library().channels["UCBJycsmduvYEL83R_U4JriQ"]?.title == "Marques Brownlee")
        // And binary garbage is refused with exit 65 and a reason, changing nothing
        try Data([0x00, 0xFF, 0x10, 0x80, 0x00]).write(to: URL(fileURLWithPath: directory.path("garbage.bin")))
        let garbage = try runProcess(metube, ["import", directory.path("garbage.bin")] + dataDir)
        #expect(garbage.status == 65)
        #expect(garbage.stderr.contains("unrecognized format"))
        #expect(try Store.open(at: directory.url).library().channels.count == 2)
    }

    @Test func doctorSaysHealthyOrNamesTheDamagedFileWithoutChangingIt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try seeded(directory)
        try Store.open(at: directory.url).compact()
        let dataDir = ["--data-dir", directory.url.path]
        #expect(try runProcess(metube, ["doctor"] + dataDir).status == 0)
        // Given a truncated marks snapshot
        let path = directory.path("marks.json")
        let damaged = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(20)
        try damaged.write(to: URL(fileURLWithPath: path))
        // When the doctor looks
        let outcome = try runProcess(metube, ["doctor", "--json"] + dataDir)
        // Then it exits 1, names the file as a problem, and leaves it as it was
        #expect(outcome.status == 1)
        let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(report?["healthy"] as? Bool == false)
        let findings = report?["findings"] as? [[String: Any]] ?? []
        #expect(findings.contains { $0["severity"] as? String == "problem" && $0["subject"] as? String == "marks.json" })
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
    }

    @Test func syncFromCronCompactsAGrownJournalEvenWhenTheHubIsDown() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given a store whose journal is past the compaction threshold
        let generator = SyntheticLibrary(channelCount: 20, videoCount: 12_000, markCount: 0)
        let store = try Store.open(at: directory.url)
        try store.apply(StoreChange(videos: generator.videos(), channels: generator.channels()))
        #expect(store.needsCompaction)
        // When a sync runs against a hub nobody listens on
        let outcome = try runProcess(metube, ["sync", "--hub-url", "http://127.0.0.1:9", "--data-dir", directory.url.path,
                                              "--config", directory.path("none.toml")])
        // Then the sync fails, but the journal is folded in and nothing is lost
        #expect(outcome.status != 0)
        let reopened = try Store.open(at: directory.url)
        #expect(!reopened.needsCompaction)
        #expect(reopened.library().videos.count == 12_000)
    }
}
