import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeDownloads
import MeTubePlayer
import MeTubeSponsorBlock
import MeTubeStore

/// `metube play VIDEO`: plays a video in a tracked mpv, resuming where it stopped, and prints
/// the position it saved.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a video in mpv, resuming where it stopped, and save where it stops.",
        discussion: """
            mpv is started with a JSON IPC socket; the position is saved every 5 seconds of playback, on pause and when mpv ends \
            (even when it is killed). A partly watched video starts at the saved position less [tui] resume-rewind seconds, \
            unless [tui] resume is "never" (or "ask" and the answer is no). Reaching [tui] watched-at of the video, or its end, \
            marks it watched. Prints what it saved when mpv ends. \
            A video with an offline copy (`metube download`) plays the file, tracked the same way.
            """
    )

    @OptionGroup var store: StoreAccess

    @Argument(help: ArgumentHelp("The video id, or a watch, youtu.be or shorts URL.", valueName: "video"))
    var video: String

    @Flag(help: "Start from the beginning, whatever was saved.")
    var startOver = false

    @Flag(help: "Play even when the video is not in the library.")
    var force = false

    func run() throws {
        let settings = try store.settings()
        let player = PlayerSettings(settings: settings)
        guard let videoID = VideoID.extract(from: video) else {
            throw fail("\(DisplayText.line(video, limit: 60)) is not a YouTube video id (11 characters of A-Z a-z 0-9 _ -) or video URL", code: ExitStatus.badInput)
        }
        let opened = try store.openStore()
        let library = opened.library()
        guard let found = library.video(videoID) ?? (force ? Video(id: videoID, channelID: "", title: videoID, published: Date()) : nil) else {
            throw fail("no video \(videoID) in the library (use --force to play it anyway)", code: ExitStatus.notFound)
        }
        let start = startOver ? nil : resumeSeconds(player.policy, saved: library.playbackPositions[videoID])
        if let start { print("\(videoID): resuming at \(PlaybackText.clock(start))") }
        let copy = DownloadDirectory(url: DownloadSettings(settings: settings).directory).copy(of: videoID)
        if copy != nil { print("\(videoID): playing the copy on disk") }
        if player.marksAtStart { try withStoreErrors { () throws(StoreError) in _ = try opened.mark(videoID, as: .watched) } }
        let recorder: PlaybackRecorder
        do {
            recorder = try PlaybackRecorder.start(video: found, localFile: copy?.file, store: opened, policy: player.policy, command: player.command,
                                                  startSeconds: start, socketDirectory: PlayerSocketDirectory.url())
        } catch {
            throw fail(error.description, code: ExitStatus.failure)
        }
        SponsorSegmentLoader(settings: SponsorBlockSettings(settings: settings), store: opened)?.load(found, into: recorder.useSegments) { failure in
            FileHandle.standardError.write(Data("metube: \(failure)\n".utf8))
        }
        let outcome = recorder.waitUntilEnded()
        if let failure = outcome.failure { throw fail(failure, code: ExitStatus.failure) }
        print("\(videoID): \(outcome.summary)")
        if !outcome.saveFailures.isEmpty { throw ExitCode(ExitStatus.ioError) }
    }

    /// Where to start: the policy's resume point, after asking when `resume = "ask"` and the
    /// input is a terminal.
    private func resumeSeconds(_ policy: PlaybackPolicy, saved: PlaybackPosition?) -> Double? {
        guard policy.resume != .never, let start = policy.resumeSeconds(for: saved) else { return nil }
        guard policy.resume == .ask, isatty(STDIN_FILENO) == 1 else { return start }
        print("Resume at \(PlaybackText.clock(start))? [Y/n] ", terminator: "")
        fflush(nil)
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return answer.isEmpty || answer.hasPrefix("y") ? start : nil
    }
}
