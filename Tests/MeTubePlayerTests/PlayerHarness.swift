import Foundation
import MeTubeCore
import MeTubePlayer
import MeTubeStore
import TestSupport

/// A store, a video and a real mpv playing a generated source with no files and no display
/// (`--vo=null --ao=null`, `av://lavfi:testsrc`); the video's URL goes into `--title`, so the
/// template plays the test source whatever the video.
struct PlayerHarness {
    let directory = TemporaryDirectory("metube-player")
    let store: Store
    let video: Video

    /// A harness whose video the feed says lasts `duration` seconds (a generated source's own
    /// duration only grows while it plays, like a stream's).
    init(duration: Int? = 600) throws {
        video = Video(id: "dQw4w9WgXcQ", channelID: "UCuAXFkgsw1L7xaCfnd5JJOw", title: "test source", published: Date(timeIntervalSince1970: 0),
                      duration: duration)
        store = try Store.open(at: directory.url.appendingPathComponent("store"))
        try store.apply(StoreChange(videos: [video]))
    }

    /// An mpv command playing `seconds` of test source at `speed` times real time.
    static func testSource(seconds: Int, speed: Double = 1) -> MPVCommand {
        MPVCommand(template: "mpv --no-config --vo=null --ao=null --ytdl=no --speed=\(speed) --title={url} av://lavfi:testsrc=duration=\(seconds):rate=10")
    }

    /// Starts recording `video` (the harness's own by default) with `command`; returns the
    /// recorder and its updates.
    func play(
        _ command: MPVCommand, video: Video? = nil, policy: PlaybackPolicy = PlaybackPolicy(), startSeconds: Double? = nil,
        socketTimeout: Double = 10
    ) throws -> (PlaybackRecorder, AsyncStream<PlaybackUpdate>) {
        let (updates, continuation) = AsyncStream<PlaybackUpdate>.makeStream()
        let recorder = try PlaybackRecorder.start(
            video: video ?? self.video, store: store, policy: policy, command: command, startSeconds: startSeconds,
            socketDirectory: directory.url.appendingPathComponent("run"), socketTimeout: socketTimeout
        ) { update in
            continuation.yield(update)
            if update.outcome != nil { continuation.finish() }
        }
        return (recorder, updates)
    }

    /// The first update for which `condition` holds.
    static func first(_ updates: AsyncStream<PlaybackUpdate>, where condition: (PlaybackUpdate) -> Bool) async -> PlaybackUpdate? {
        for await update in updates where condition(update) { return update }
        return nil
    }

    /// The store as another process would read it now.
    func reopened() throws -> Library { try Store.open(at: store.directory).library() }

    func remove() { directory.remove() }
}
