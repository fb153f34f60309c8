#if canImport(Glibc)
import Foundation
import Glibc
import MeTubeCore
import Synchronization
#endif

/// One run of yt-dlp for one video, as a child process on a thread of its own. Its output is read
/// through a ``BoundedLineReader`` (progress lines are checked, anything else is kept as the last
/// error lines), it is stopped when nothing happens for ``stallLimit`` or when the copy outgrows
/// the room it was given, and the copy is then looked up in the directory by name alone.
public struct YTDLPRun: Sendable {
    /// The `[download]` settings.
    public var settings: DownloadSettings
    /// How long the run may go without progress or a message before it is stopped.
    public var stallLimit: Duration
    /// How many of the last lines a failure keeps.
    public static let keptLines = 12
    /// The longest kept line, in characters.
    static let keptLineLength = 400

    /// A run with `settings`.
    public init(settings: DownloadSettings, stallLimit: Duration = .seconds(120)) {
        self.settings = settings
        self.stallLimit = stallLimit
    }

    /// Downloads `videoID` into the directory, with at most `room` bytes for it (`nil`: no limit),
    /// calling `progress` for each report (on the run's thread). Cancelling the task kills yt-dlp
    /// and keeps its partial file.
    public func download(_ videoID: String, room: Int64?, progress: @escaping @Sendable (DownloadProgress) -> Void) async -> DownloadOutcome {
        let stop = StopSignal()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(returning: run(videoID, room: room, stop: stop, progress: progress))
                }
            }
        } onCancel: {
            stop.raise()
        }
    }

    /// The arguments yt-dlp is given.
    func arguments(for videoID: String, room: Int64?) -> [String] {
        let output = settings.directory.path.replacingOccurrences(of: "%", with: "%%") + "/\(videoID).%(ext)s"
        return ["--newline", "--no-colors", "--no-playlist", "--continue",
                "--progress-template", DownloadProgress.template, "-f", settings.format, "-o", output]
            + (room.map { ["--max-filesize", String(max(0, $0))] } ?? [])
            + ["--", settings.url(for: videoID)]
    }

    private func run(_ videoID: String, room: Int64?, stop: StopSignal, progress: @Sendable (DownloadProgress) -> Void) -> DownloadOutcome {
        guard VideoID.isValid(videoID) else { return .failed(DownloadFailure(kind: .failed, lines: ["not a video id"])) }
        guard let executable = Self.executable(settings.command) else {
            return .failed(DownloadFailure(kind: .missing, lines: ["\(settings.command): command not found"]))
        }
        let directory = DownloadDirectory(url: settings.directory)
        do {
            try directory.create()
        } catch {
            return .failed(DownloadFailure(kind: .failed, lines: ["cannot create \(settings.directory.path): \(error.localizedDescription)"]))
        }
        let pipe = Pipe()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments(for: videoID, room: room)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return .failed(DownloadFailure(kind: .missing, lines: ["\(settings.command): \(error.localizedDescription)"]))
        }
        try? pipe.fileHandleForWriting.close()
        let watch = follow(process, output: pipe.fileHandleForReading.fileDescriptor, room: room, stop: stop, progress: progress)
        process.waitUntilExit()
        try? pipe.fileHandleForReading.close()
        return outcome(of: process, watch, videoID: videoID, directory: directory, room: room)
    }

    /// What following the child's output found.
    private struct Watch {
        var lines: [String] = []
        var stalled = false
        var cancelled = false
        var neededBytes: Int64?
    }

    private func follow(_ process: Process, output fd: Int32, room: Int64?, stop: StopSignal, progress: @Sendable (DownloadProgress) -> Void) -> Watch {
        var watch = Watch()
        var reader = BoundedLineReader()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var lastActivity = ContinuousClock.now
        var endOfOutput = false
        var exitedAt: ContinuousClock.Instant?
        func kill() { Glibc.kill(process.processIdentifier, SIGKILL) }
        func take(_ line: Substring) {
            switch DownloadProgress.parse(line) {
            case .progress(let report):
                lastActivity = .now
                if let room, watch.neededBytes == nil, max(report.totalBytes ?? 0, report.downloadedBytes) > room {
                    watch.neededBytes = max(report.totalBytes ?? 0, report.downloadedBytes)
                    kill()
                }
                progress(report)
            case .garbage:
                break
            case .message:
                lastActivity = .now
                guard !line.allSatisfy(\.isWhitespace) else { return }
                watch.lines.append(String(line.prefix(Self.keptLineLength)))
                if watch.lines.count > Self.keptLines { watch.lines.removeFirst() }
            }
        }
        while true {
            if !endOfOutput {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&poller, 1, 200) > 0 {
                    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    if count > 0 {
                        for line in buffer.withUnsafeBytes({ reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }) { take(line) }
                    } else if count == 0 || errno != EINTR {
                        endOfOutput = true
                        if let last = reader.finish() { take(last) }
                    }
                }
            } else {
                usleep(20_000)
            }
            if !watch.cancelled, stop.isRaised {
                watch.cancelled = true
                kill()
            }
            if !watch.stalled, !watch.cancelled, ContinuousClock.now - lastActivity > stallLimit {
                watch.stalled = true
                kill()
            }
            if !process.isRunning {
                let exited = exitedAt ?? .now
                exitedAt = exited
                // A grandchild (ffmpeg) may hold the output open after yt-dlp ended.
                if endOfOutput || ContinuousClock.now - exited > .seconds(2) { break }
            }
        }
        return watch
    }

    private func outcome(of process: Process, _ watch: Watch, videoID: String, directory: DownloadDirectory, room: Int64?) -> DownloadOutcome {
        if watch.cancelled { return .cancelled }
        if let needed = watch.neededBytes {
            directory.remove(videoID)
            return .doesNotFit(neededBytes: needed)
        }
        if watch.stalled { return .failed(DownloadFailure(kind: .stalled, lines: watch.lines)) }
        let status = process.terminationStatus
        if process.terminationReason == .uncaughtSignal {
            return .failed(DownloadFailure(kind: .failed, lines: watch.lines + ["killed by signal \(status)"]))
        }
        guard status == 0 else {
            return .failed(DownloadFailure(kind: DownloadFailure.classify(status: status, lines: watch.lines), status: status, lines: watch.lines))
        }
        if let copy = directory.copy(of: videoID) { return .downloaded(copy) }
        if let room, watch.lines.contains(where: { $0.contains("larger than max-filesize") }) {
            directory.remove(videoID)
            return .doesNotFit(neededBytes: room + 1)
        }
        return .failed(DownloadFailure(kind: .noFile, status: 0, lines: watch.lines))
    }

    /// The program `command` names: a path, or a name found on `PATH`.
    public static func executable(_ command: String, path: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") -> URL? {
        guard !command.isEmpty else { return nil }
        if command.contains("/") { return access(command, X_OK) == 0 ? URL(fileURLWithPath: command) : nil }
        for directory in path.split(separator: ":") where directory.hasPrefix("/") {
            let candidate = "\(directory)/\(command)"
            if access(candidate, X_OK) == 0 { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }
}

/// Set once to stop a child process's run from another thread (a download, a catalog call).
public final class StopSignal: Sendable {
    private let raised = Atomic<Bool>(false)

    /// A signal not yet raised.
    public init() {}

    /// Asks the run to stop.
    public func raise() { raised.store(true, ordering: .relaxed) }

    /// Whether the run was asked to stop.
    public var isRaised: Bool { raised.load(ordering: .relaxed) }
}
