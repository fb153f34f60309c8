import Foundation
import MeTubeCore
import MeTubePlayer
import MeTubeStore
import Synchronization

/// The time from playback entering a sponsor segment to mpv playing from its end, with a real
/// mpv (`--vo=null --ao=null`) on a generated source at 2x, crossing 15 one-second segments.
/// "Entering" is when playback crossed the segment's start, worked out from the first position
/// reported inside it (its distance past the start, at the playback speed); "skipped" is when
/// the first frame past the segment's end is reported (mpv echoes the seek's target at once,
/// before it plays from there, so that echo does not count). `nil` when mpv is not installed.
func sponsorSkipFigures(directory: URL) throws -> [Figure]? {
    guard PlayerSettings.isOnPath("mpv", environment: ProcessInfo.processInfo.environment) else { return nil }
    let speed = 2.0
    let segments = (0..<15).map { SponsorSegment(start: Double($0) * 3 + 2, end: Double($0) * 3 + 3, category: "sponsor") }
    let store = try Store.open(at: directory.appendingPathComponent("sponsor-store"))
    let video = Video(id: "dQw4w9WgXcQ", channelID: "UCuAXFkgsw1L7xaCfnd5JJOw", title: "sponsor bench", published: Date(), duration: 600)
    try store.apply(StoreChange(videos: [video]))
    let reports = Mutex<[(seconds: Double, at: ContinuousClock.Instant)]>([])
    let pastLast = DispatchSemaphore(value: 0)
    let command = MPVCommand(template: "mpv --no-config --vo=null --ao=null --ytdl=no --speed=\(speed) --title={url} av://lavfi:testsrc=duration=600:rate=25")
    let recorder = try PlaybackRecorder.start(
        video: video, store: store, policy: PlaybackPolicy(), command: command, startSeconds: nil, socketDirectory: directory.appendingPathComponent("run")
    ) { update in
        guard let seconds = update.seconds else { return }
        reports.withLock { $0.append((seconds, .now)) }
        if seconds >= segments[segments.count - 1].end + 1 { pastLast.signal() }
    }
    recorder.useSegments(segments)
    defer { recorder.stop(waitingAtMost: 10) }
    guard pastLast.wait(timeout: .now() + 120) == .success else { throw BenchError("mpv did not play past the last segment within 120 s") }
    let seen = reports.withLock { $0 }
    var samples: [Double] = []
    var playedThrough = 0
    for segment in segments {
        guard let entered = seen.firstIndex(where: { $0.seconds >= segment.start }), seen[entered].seconds < segment.end else { continue }
        guard let resumed = seen[entered...].first(where: { $0.seconds > segment.end + 0.001 }) else { continue }
        let crossed = seen[entered].at - .milliseconds(Int64((seen[entered].seconds - segment.start) / speed * 1000))
        samples.append((resumed.at - crossed).milliseconds)
        if seen[entered...].contains(where: { $0.seconds >= segment.start + 0.5 && $0.seconds < segment.end }) { playedThrough += 1 }
    }
    guard !samples.isEmpty else { throw BenchError("no segment was entered and left") }
    return [Figure(
        name: "playback.sponsor_skip.p99", value: Measure.percentile(samples, 99), unit: "ms", goal: "<= 250 ms",
        detail: "\(samples.count) segments entered by a real mpv at \(Int(speed))x (25 fps), entering → first frame played past the end; median \(String(format: "%.1f", Measure.median(samples))) ms, max \(String(format: "%.1f", samples.max() ?? 0)) ms; \(playedThrough) played on past half a second"
    )]
}
