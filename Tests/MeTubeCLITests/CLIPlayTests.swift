import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `metube play` with the real mpv on a generated source (the `open` template puts the video's
/// URL into `--title`, so mpv plays the test source).
@Suite struct CLIPlayTests {
    let metube = ProductBinary.url("metube")

    @Test func playResumesBeforeTheSavedPositionAndPrintsWhatItSaved() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store"))
        let video = Video(id: "dQw4w9WgXcQ", channelID: "UCuAXFkgsw1L7xaCfnd5JJOw", title: "t", published: Date(timeIntervalSince1970: 0), duration: 40)
        try store.apply(StoreChange(videos: [video]))
        try store.transaction { _ = $0.savePosition(video.id, seconds: 30, duration: 40) }
        let config = directory.url.appendingPathComponent("config.toml")
        try """
            [tui]
            player = "mpv"
            open = "mpv --no-config --vo=null --ao=null --ytdl=no --speed=10 --title={url} av://lavfi:testsrc=duration=40:rate=10"
            resume-rewind = 5
            """.write(to: config, atomically: true, encoding: .utf8)
        let outcome = try runProcess(metube, ["play", video.id, "--data-dir", store.directory.path, "--config", config.path],
                                     environment: ["XDG_RUNTIME_DIR": directory.url.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\(video.id): resuming at 0:25"))
        #expect(outcome.stdout.contains("saved position 0:40 of 0:40 (100%); marked watched"), "\(outcome.stdout)")
        let library = try Store.open(at: store.directory).library()
        #expect(library.marks[video.id]?.status == .watched)
        #expect(library.playbackPositions[video.id]?.seconds == 40)
    }

    @Test func aPlayerThatFailsExitsOneWithAClearMessageAndSavesNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store"))
        try store.apply(StoreChange(videos: [Video(id: "dQw4w9WgXcQ", channelID: "UC", title: "t", published: Date(timeIntervalSince1970: 0))]))
        let config = directory.url.appendingPathComponent("config.toml")
        try "[tui]\nplayer = \"mpv\"\nopen = \"false {url}\"\n".write(to: config, atomically: true, encoding: .utf8)
        let outcome = try runProcess(metube, ["play", "dQw4w9WgXcQ", "--data-dir", store.directory.path, "--config", config.path],
                                     environment: ["XDG_RUNTIME_DIR": directory.url.path])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("the player exited at once with status 1"))
        #expect(try Store.open(at: store.directory).library().playbackPositions.isEmpty)
    }
}
