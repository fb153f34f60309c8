import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `metube play` with `[sponsorblock] enabled`: segments from a loopback SponsorBlock stub are
/// kept in the store, and skipped in the real mpv with the stub gone (the first play skips too
/// once the answer is in, which a busy machine may delay past the segment, so it is not checked).
@Suite struct CLISponsorBlockTests {
    let metube = ProductBinary.url("metube")

    /// Runs metube on a thread of its own: waiting for it on one of the few threads of Swift's
    /// concurrency pool could leave none for the stub that answers it.
    private static func play(_ executable: URL, _ arguments: [String], environment: [String: String]) async throws -> ProcessOutcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try runProcess(executable, arguments, environment: environment) }) }.start()
        }
    }

    /// How often mpv's terminal OSD in `file` showed the skip.
    private static func skips(in file: URL) throws -> Int {
        try String(contentsOf: file, encoding: .utf8).components(separatedBy: "skipped sponsor 0:06–0:20").count - 1
    }

    @Test func playSkipsTheSegmentAndKeepsItForOfflinePlay() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store"))
        let video = Video(id: "dQw4w9WgXcQ", channelID: "UCuAXFkgsw1L7xaCfnd5JJOw", title: "t", published: Date(timeIntervalSince1970: 0), duration: 30)
        try store.apply(StoreChange(videos: [video]))
        let stub = await SponsorBlockStub.start(videos: [video.id: [.init(6, 20)]])
        let osd = directory.url.appendingPathComponent("osd.txt")
        let config = directory.url.appendingPathComponent("config.toml")
        try """
            [tui]
            player = "mpv"
            open = "mpv --no-config --vo=null --ao=null --ytdl=no --term-osd=force --speed=3 --title={url} av://lavfi:testsrc=duration=30:rate=10 >>\(osd.path) 2>&1"
            [sponsorblock]
            enabled = true
            api = "\(stub.url)"
            """.write(to: config, atomically: true, encoding: .utf8)
        let arguments = ["play", video.id, "--start-over", "--data-dir", store.directory.path, "--config", config.path]
        let online = try await Self.play(metube, arguments, environment: ["XDG_RUNTIME_DIR": directory.url.path])
        #expect(online.status == 0, "\(online.stderr)")
        #expect(online.stdout.contains("saved position 0:30 of 0:30 (100%); marked watched"), "\(online.stdout)")
        #expect(stub.requests.count == 1)
        #expect(try Store.open(at: store.directory).sponsorSegments(of: video.id)?.segments == [SponsorSegment(start: 6, end: 20, category: "sponsor")])
        stub.stop()
        try Data().write(to: osd)
        let offline = try await Self.play(metube, arguments, environment: ["XDG_RUNTIME_DIR": directory.url.path])
        #expect(offline.status == 0 && offline.stderr.isEmpty, "\(offline.stderr)")
        #expect(try Self.skips(in: osd) >= 1)
        #expect(stub.requests.count == 1)
    }
}
