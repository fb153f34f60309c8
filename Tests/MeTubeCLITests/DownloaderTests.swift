import Foundation
@testable import MeTubeCore
@testable import MeTubeDownloads
import Synchronization
import TestSupport
import Testing

/// Downloads with the real yt-dlp against a loopback server of an ffmpeg-made video, and the
/// bad behaviour of a `[download] command` that is not a well-behaved yt-dlp (fake scripts are
/// fault injection).
@Suite struct DownloaderTests {
    static let video = "dlVideo0001"
    static let other = "dlVideo0002"

    private static func settings(_ directory: URL, server: MediaServer? = nil, command: String = "yt-dlp", format: String = "b", quota: Int64? = nil) -> DownloadSettings {
        DownloadSettings(command: command, directory: directory, format: format, concurrency: 1, quotaBytes: quota,
                         urlTemplate: server?.urlTemplate ?? "http://127.0.0.1:9/v/{videoId}.mp4")
    }

    /// A fake `[download] command`: `body` is run by /bin/sh with `$OUT` set to the file yt-dlp
    /// would write (its `-o` with the extension filled in) and `$URL` to the page.
    private static func script(_ body: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("fake-yt-dlp")
        let text = """
        #!/bin/sh
        while [ $# -gt 0 ]; do
          case "$1" in
            -o) OUT=$(printf '%s' "$2" | sed 's/%(ext)s/mp4/'); shift ;;
            --) URL="$2"; shift ;;
          esac
          shift
        done
        \(body)
        """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    private static func download(_ settings: DownloadSettings, room: Int64? = nil, stallLimit: Duration = .seconds(60), id: String = video) async -> (DownloadOutcome, [DownloadProgress]) {
        let reports = Mutex<[DownloadProgress]>([])
        let outcome = await YTDLPRun(settings: settings, stallLimit: stallLimit).download(id, room: room) { report in
            reports.withLock { $0.append(report) }
        }
        return (outcome, reports.withLock { $0 })
    }

    private static func failure(_ outcome: DownloadOutcome) -> DownloadFailure? {
        if case .failed(let failure) = outcome { failure } else { nil }
    }

    // MARK: real yt-dlp

    @Test func aQueuedVideoIsDownloadedWithProgress() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = await MediaServer.start(serving: [Self.video])
        defer { server.stop() }
        let (outcome, reports) = await Self.download(Self.settings(directory.url, server: server))
        guard case .downloaded(let copy) = outcome else { Issue.record("not downloaded: \(outcome)"); return }
        #expect(copy.file.lastPathComponent == "\(Self.video).mp4")
        #expect(FileManager.default.contents(atPath: copy.file.path) == MediaServer.sampleVideo)
        #expect(!reports.isEmpty)
        #expect(reports.last?.fraction == 1)
        #expect(reports.allSatisfy { $0.totalBytes == Int64(MediaServer.sampleVideo.count) })
        #expect(DownloadDirectory(url: directory.url).copy(of: Self.video)?.bytes == Int64(MediaServer.sampleVideo.count))
    }

    @Test func aDownloadKilledMidwayResumesFromItsPartFile() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = await MediaServer.start(serving: [Self.video])
        defer { server.stop() }
        server.hold(after: 64 * 1024)
        let settings = Self.settings(directory.url, server: server)
        let (reports, continuation) = AsyncStream.makeStream(of: DownloadProgress.self)
        let first = Task { await YTDLPRun(settings: settings).download(Self.video, room: nil) { continuation.yield($0) } }
        for await report in reports where report.downloadedBytes >= 32 * 1024 { break }
        first.cancel()
        #expect(await first.value == .cancelled)
        let part = DownloadDirectory(url: directory.url).bytes(of: Self.video)
        #expect(part > 0, "the partial file is kept")
        server.hold(after: nil)
        let (outcome, _) = await Self.download(settings)
        guard case .downloaded(let copy) = outcome else { Issue.record("not downloaded: \(outcome)"); return }
        #expect(FileManager.default.contents(atPath: copy.file.path) == MediaServer.sampleVideo)
        #expect(server.rangeStarts.contains { $0 > 0 }, "the second run asked for the rest only")
    }

    @Test func aVideoLargerThanTheRoomLeftDoesNotFitAndLeavesNothing() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = await MediaServer.start(serving: [Self.video])
        defer { server.stop() }
        let (outcome, _) = await Self.download(Self.settings(directory.url, server: server), room: 10_000)
        guard case .doesNotFit(let needed) = outcome else { Issue.record("fitted: \(outcome)"); return }
        #expect(needed > 10_000)
        #expect(DownloadDirectory(url: directory.url).usedBytes() == 0)
    }

    @Test func theQuotaRemovesTheOldestWatchedCopiesFirstAndNeverOverflows() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = await MediaServer.start(serving: [Self.video])
        defer { server.stop() }
        let size = MediaServer.sampleVideo.count
        for (id, bytes) in [("oldWatched1", size / 2), ("newWatched1", size / 2), ("unwatched01", size / 2)] {
            FileManager.default.createFile(atPath: directory.path("\(id).mp4"), contents: Data(count: bytes))
        }
        let quota = Int64(size / 2 * 3 + size / 2 + 1000)
        let downloader = Downloader(runner: YTDLPRun(settings: Self.settings(directory.url, server: server, quota: quota)))
        let states = await downloader.process(queue: [Self.video], watched: ["oldWatched1", "newWatched1"])
        #expect(states[Self.video] == .downloaded)
        let copies = DownloadDirectory(url: directory.url).copies()
        #expect(copies["oldWatched1"] == nil)
        #expect(copies["newWatched1"] != nil)
        #expect(copies["unwatched01"] != nil)
        #expect(DownloadDirectory(url: directory.url).usedBytes() <= quota)
    }

    @Test func aVideoThatCannotFitWaitsAndSaysWhy() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = await MediaServer.start(serving: [Self.video])
        defer { server.stop() }
        FileManager.default.createFile(atPath: directory.path("unwatched01.mp4"), contents: Data(count: 50_000))
        let downloader = Downloader(runner: YTDLPRun(settings: Self.settings(directory.url, server: server, quota: 100_000)))
        let states = await downloader.process(queue: [Self.video], watched: [])
        guard case .waiting(let reason)? = states[Self.video] else { Issue.record("not waiting: \(String(describing: states[Self.video]))"); return }
        #expect(reason.contains("left of the"))
        #expect(DownloadDirectory(url: directory.url).usedBytes() == 50_000)
    }

    @Test func anUnavailableVideoIsClassified() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = await MediaServer.start(serving: [])
        defer { server.stop() }
        let (outcome, _) = await Self.download(Self.settings(directory.url, server: server))
        #expect(Self.failure(outcome)?.kind == .unavailable, "\(outcome)")
        #expect(Self.failure(outcome)?.lines.contains { $0.contains("404") } == true)
    }

    @Test func aFormatThatIsNotOfferedIsClassified() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let server = await MediaServer.start(serving: [Self.video])
        defer { server.stop() }
        // The direct file has no height, so the default selector matches nothing.
        let (outcome, _) = await Self.download(Self.settings(directory.url, server: server, format: "bv*[height<=720]+ba/b[height<=720]"))
        #expect(Self.failure(outcome)?.kind == .formatUnavailable, "\(outcome)")
    }

    @Test(.enabled(if: ScratchMount.isAvailable, "needs root to mount a tmpfs"))
    func aDiskThatFillsMidDownloadIsClassifiedAndRetryable() async throws {
        let mount = try ScratchMount(sizeKiB: 64)
        defer { mount.remove() }
        let server = await MediaServer.start(serving: [Self.video])
        defer { server.stop() }
        let (outcome, _) = await Self.download(Self.settings(mount.url, server: server))
        #expect(Self.failure(outcome)?.kind == .diskFull, "\(outcome)")
        #expect(Self.failure(outcome)?.isRetryable == true)
    }

    // MARK: a command that misbehaves

    @Test func aMissingCommandStopsEveryDownload() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let settings = Self.settings(directory.url, command: "/nonexistent/yt-dlp")
        let (outcome, _) = await Self.download(settings)
        #expect(Self.failure(outcome)?.kind == .missing, "\(outcome)")
        let states = await Downloader(runner: YTDLPRun(settings: settings)).process(queue: [Self.video, Self.other], watched: [])
        #expect(states.values.allSatisfy { if case .failed(let failure, _) = $0 { failure.kind == .missing } else { false } })
        #expect(states.count == 2)
    }

    @Test func aYTDLPTooOldForTheOptionsIsClassified() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let command = try Self.script("echo 'yt-dlp: error: no such option: --progress-template' >&2; exit 2", in: directory)
        let (outcome, _) = await Self.download(Self.settings(directory.url.appendingPathComponent("videos"), command: command))
        #expect(Self.failure(outcome)?.kind == .tooOld, "\(outcome)")
        #expect(Self.failure(outcome)?.status == 2)
    }

    @Test func garbageProgressAndA100MBLineAreSurvived() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let command = try Self.script("""
            echo 'metube-progress downloading lots NA NA'
            echo 'metube-progress downloading -5 10 NA'
            echo 'metube-progress downloading 1e400 10 NA'
            echo 'metube-progress'
            printf '\\377\\376 binary \\033[2J\\n'
            head -c 100000000 /dev/zero | tr '\\0' 'x'
            echo
            echo 'metube-progress downloading 5 10 NA'
            echo 'metube-progress finished 10 10 NA'
            printf 'copy' > "$OUT"
            """, in: directory)
        let (outcome, reports) = await Self.download(Self.settings(directory.url.appendingPathComponent("videos"), command: command))
        guard case .downloaded(let copy) = outcome else { Issue.record("not downloaded: \(outcome)"); return }
        #expect(copy.bytes == 4)
        #expect(reports == [DownloadProgress(downloadedBytes: 5, totalBytes: 10), DownloadProgress(downloadedBytes: 10, totalBytes: 10)])
    }

    @Test func exitingZeroWithoutAFileIsAFailure() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let command = try Self.script("echo '[download] 100% done'; exit 0", in: directory)
        let (outcome, _) = await Self.download(Self.settings(directory.url.appendingPathComponent("videos"), command: command))
        #expect(Self.failure(outcome)?.kind == .noFile, "\(outcome)")
        #expect(Self.failure(outcome)?.lines == ["[download] 100% done"])
    }

    @Test func aFileWrittenOutsideTheDirectoryIsNotACopy() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let outside = directory.path("outside.mp4")
        let command = try Self.script("""
            printf 'evil' > '\(outside)'
            ln -s '\(outside)' "$OUT"
            echo "[download] Destination: \(outside)"
            exit 0
            """, in: directory)
        let videos = directory.url.appendingPathComponent("videos")
        let (outcome, _) = await Self.download(Self.settings(videos, command: command))
        #expect(Self.failure(outcome)?.kind == .noFile, "\(outcome)")
        #expect(DownloadDirectory(url: videos).copies().isEmpty)
    }

    @Test func aHangingCommandIsStoppedAfterTheTimeLimit() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let command = try Self.script("echo '[generic] extracting'; exec sleep 600", in: directory)
        let (outcome, _) = await Self.download(Self.settings(directory.url.appendingPathComponent("videos"), command: command), stallLimit: .milliseconds(500))
        #expect(Self.failure(outcome)?.kind == .stalled, "\(outcome)")
        #expect(Self.failure(outcome)?.lines == ["[generic] extracting"])
    }

    @Test func aFailingVideoIsRetriedWithBackoffWithoutBlockingTheQueue() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let log = directory.path("calls")
        let command = try Self.script("""
            echo "$URL" >> '\(log)'
            case "$URL" in
              *\(Self.video)*) echo 'ERROR: connection reset' >&2; exit 1 ;;
            esac
            printf 'copy' > "$OUT"
            """, in: directory)
        let settings = Self.settings(directory.url.appendingPathComponent("videos"), command: command)
        let downloader = Downloader(runner: YTDLPRun(settings: settings), retry: .init(attempts: 2, firstDelay: .milliseconds(300)))
        let states = await downloader.process(queue: [Self.video, Self.other], watched: [])
        #expect(states[Self.other] == .downloaded)
        #expect(states[Self.video] == .failed(DownloadFailure(kind: .failed, status: 1, lines: ["ERROR: connection reset"]), attempts: 2))
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { $0.contains(Self.video) ? "failing" : "other" }
        #expect(calls == ["failing", "other", "failing"])
    }
}

/// The pieces of a download that need no child process.
@Suite struct DownloadPartsTests {
    @Test func progressLinesAreReadDefensively() {
        #expect(DownloadProgress.parse("metube-progress downloading 1024 144022 NA") == .progress(DownloadProgress(downloadedBytes: 1024, totalBytes: 144_022)))
        #expect(DownloadProgress.parse("metube-progress downloading 1024 NA 2000.5") == .progress(DownloadProgress(downloadedBytes: 1024, totalBytes: 2000)))
        #expect(DownloadProgress.parse("metube-progress downloading 1024 NA NA") == .progress(DownloadProgress(downloadedBytes: 1024, totalBytes: nil)))
        for garbage in ["metube-progress", "metube-progress downloading NA 1 1", "metube-progress downloading nan 1 1",
                        "metube-progress downloading 1 inf NA", "metube-progress downloading 1 1 1 extra", "metube-progress hacking 1 1 1",
                        "metube-progress downloading 1e300 NA NA", "metube-progress downloading -1 NA NA"] {
            #expect(DownloadProgress.parse(Substring(garbage)) == .garbage, "\(garbage)")
        }
        #expect(DownloadProgress.parse("[download] Destination: x.mp4") == .message)
    }

    @Test func anOverlongLineIsDroppedWithoutBeingHeld() {
        var reader = BoundedLineReader()
        let long = [UInt8](repeating: 0x78, count: 100_000) + [0x0A] + Array("after\n".utf8)
        let lines = long.withUnsafeBytes { reader.feed($0) }
        #expect(lines == ["after"])
        #expect(reader.overlongLines == 1)
        let split = Array("par".utf8).withUnsafeBytes { reader.feed($0) } + Array("t\r\n".utf8).withUnsafeBytes { reader.feed($0) }
        #expect(split == ["part"])
    }

    @Test func theQuotaRemovesTheFewestOldestWatchedCopies() {
        let watched = [(videoID: "a", bytes: Int64(10)), (videoID: "b", bytes: 10), (videoID: "c", bytes: 10)]
        #expect(DownloadQuota.removals(limit: 100, used: 50, needed: 50, watched: watched) == [])
        #expect(DownloadQuota.removals(limit: 100, used: 95, needed: 10, watched: watched) == ["a"])
        #expect(DownloadQuota.removals(limit: 100, used: 95, needed: 20, watched: watched) == ["a", "b"])
        #expect(DownloadQuota.removals(limit: 100, used: 95, needed: 60, watched: watched) == nil)
    }

    @Test func keepWatchedRemovesCopiesOnceTheirDaysArePast() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let watchedAt = ["old": now.addingTimeInterval(-3 * 86_400), "new": now.addingTimeInterval(-3600)]
        #expect(DownloadQuota.expired(copies: ["old", "new", "unwatched"], watchedAt: watchedAt, keepDays: 2, now: now) == ["old"])
        #expect(DownloadQuota.expired(copies: ["old", "new", "unwatched"], watchedAt: watchedAt, keepDays: 0, now: now) == ["new", "old"])
    }

    @Test func theDownloadSettingsAreCheckedLikeTheOthers() throws {
        let defaults = DownloadSettings(settings: Settings(), environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/me"])
        #expect(defaults.directory.path == "/data/metube/videos")
        #expect(defaults.command == "yt-dlp")
        #expect(defaults.format == "bv*[height<=720]+ba/b[height<=720]")
        #expect(defaults.concurrency == 1)
        #expect(defaults.quotaBytes == nil)
        #expect(defaults.inBackground)
        #expect(defaults.url(for: "dQw4w9WgXcQ") == "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
        let set = try Settings(parsing: "[download]\ndir = \"/v\"\nquota = 1.5\nconcurrency = 2\nkeep-watched = 7\nbackground = false\n")
        let custom = DownloadSettings(settings: set, environment: [:])
        #expect(custom.directory.path == "/v")
        #expect(custom.quotaBytes == 1_610_612_736)
        #expect(custom.concurrency == 2)
        #expect(custom.keepWatchedDays == 7)
        #expect(!custom.inBackground)
        for (bad, message) in [("dir = \"videos\"", "an absolute path"), ("concurrency = 0", "from 1 to 8"), ("quota = -1", "a number from 0"),
                               ("keep-watched = 1.5", "a whole number"), ("url-template = \"http://x/\"", "containing {videoId}"),
                               ("quota = nan", "a number from 0"), ("formats = \"b\"", "did you mean format?")] {
            #expect(throws: SettingsError.self) { try Settings(parsing: "[download]\n\(bad)\n") }
            do {
                _ = try Settings(parsing: "[download]\n\(bad)\n")
            } catch {
                #expect(error.description.contains(message), "\(bad): \(error)")
            }
        }
    }
}
