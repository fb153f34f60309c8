import Foundation
import ArgumentParser
import MeTubeCore
import MeTubeDownloads
import MeTubeStore
import Synchronization

/// `metube download [status|run|remove]`: offline copies of the watch-later queue, made by yt-dlp.
struct DownloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Offline copies of the queued videos, made by yt-dlp.",
        discussion: """
            Copies go to [download] dir (default $XDG_DATA_HOME/metube/videos), one file per video named after its id, in [download] format, \
            at most [download] concurrency at a time. A download stopped part-way resumes from yt-dlp's .part file on the next run. \
            [download] quota (GiB) is never exceeded: the oldest watched copies are removed first, and a video that still does not fit \
            waits. A copy is removed [download] keep-watched days after its video is watched. `metube play` plays a copy when there is one.
            Downloading is subject to the terms of the sites involved.
            Exit codes of run: 0 every queued video has a copy; 2 some failed or wait for room; 1 yt-dlp is missing or too old.
            """,
        subcommands: [DownloadStatusCommand.self, DownloadRunCommand.self, DownloadRemoveCommand.self],
        defaultSubcommand: DownloadStatusCommand.self
    )
}

/// `metube download status`: each queued video's copy, or why it has none.
struct DownloadStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show each queued video's copy, or why it has none (the default).")

    @OptionGroup var store: StoreAccess

    @Flag(help: "Print the status as JSON.")
    var json = false

    func run() throws {
        let settings = DownloadSettings(settings: try store.settings())
        let library = try store.openStore().library()
        let directory = DownloadDirectory(url: settings.directory)
        let copies = directory.copies()
        let journal = DownloadJournal.load(from: settings.directory)
        let rows = library.queuedVideoIDs.map { id in
            DownloadRow(videoId: id, title: library.video(id)?.title, state: copies[id] != nil ? .downloaded : journal.entries[id],
                        bytes: copies[id]?.bytes ?? directory.bytes(of: id))
        }
        let report = DownloadReport(directory: settings.directory.path, usedBytes: directory.usedBytes(), quotaBytes: settings.quotaBytes, count: rows.count, videos: rows)
        if json { return try printJSON(report) }
        print("\(DisplayText.line(report.directory)): \(DownloadQuota.text(report.usedBytes))" + (settings.quotaBytes.map { " of \(DownloadQuota.text($0))" } ?? ""))
        for row in rows {
            print("\(row.videoId)  \(DisplayText.line(row.summary))  \(DisplayText.line(row.title ?? "(not in the library)", limit: 80))")
            if case .failed(let failure, _)? = row.state {
                for line in failure.lines { print("    \(DisplayText.line(line, limit: 200))") }
            }
        }
    }
}

/// `metube download run`: downloads the queue in the foreground, with progress.
struct DownloadRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Download the queued videos that have no copy yet, with progress, then end.",
        discussion: "First removes the copies [download] keep-watched lets go. A failed download is tried twice more, later, with backoff; the others go on meanwhile.")

    @OptionGroup var store: StoreAccess

    func run() async throws {
        let settings = DownloadSettings(settings: try store.settings())
        let library = try store.openStore().library()
        let downloads = QueueDownloads(settings: settings)
        for id in downloads.removeExpired(library) { print("\(id)  removed (watched \(settings.keepWatchedDays) days ago or longer)") }
        let printer = DownloadPrinter()
        let downloader = Downloader(runner: YTDLPRun(settings: settings)) { id, state in printer.show(id, state) }
        let states = await downloads.download(library, with: downloader)
        let failures = states.values.compactMap { if case .failed(let failure, _) = $0 { failure } else { nil } }
        if failures.contains(where: \.stopsEveryDownload) { throw ExitCode(ExitStatus.failure) }
        if states.values.contains(where: { $0 != .downloaded }) { throw ExitCode(ExitStatus.partial) }
    }
}

/// `metube download remove VIDEO…`: removes copies.
struct DownloadRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove the copies (and partial downloads) of videos.")

    @OptionGroup var store: StoreAccess

    @Argument(help: ArgumentHelp("Video ids, or watch, youtu.be or shorts URLs.", valueName: "video"))
    var videos: [String]

    func validate() throws {
        if videos.isEmpty { throw ValidationError("give at least one video, e.g. `metube download remove dQw4w9WgXcQ`") }
    }

    func run() throws {
        let directory = DownloadDirectory(url: DownloadSettings(settings: try store.settings()).directory)
        let ids = try QueueIDs.parse(videos)
        var missing = false
        for id in ids {
            let had = directory.bytes(of: id) > 0
            directory.remove(id)
            print("\(id) \(had ? "removed" : "had no copy")")
            missing = missing || !had
        }
        if missing { throw ExitCode(ExitStatus.notFound) }
    }
}

/// Prints each download's progress in steps of 10 % and how it ended, one line each.
private final class DownloadPrinter: Sendable {
    private let shownTenths = Mutex<[String: Int]>([:])

    func show(_ id: String, _ state: DownloadState) {
        switch state {
        case .downloading(let report):
            guard let fraction = report?.fraction else { return }
            let tenth = Int(fraction * 10)
            let isNew = shownTenths.withLock { shown in
                defer { shown[id] = tenth }
                return shown[id] != tenth
            }
            if isNew { emit("\(id)  \(tenth * 10)%") }
        case .downloaded:
            emit("\(id)  downloaded")
        case .waiting(let reason):
            emit("\(id)  waits: \(reason)")
        case .failed(let failure, let attempts):
            emit("\(id)  failed (attempt \(attempts)): \(failure.summary)")
            for line in failure.lines.suffix(3) { emit("    \(DisplayText.line(line, limit: 200))") }
        }
    }

    /// Writes `line` at once (the run's output is followed live, often through a pipe).
    private func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// `metube download status --json`.
struct DownloadReport: Encodable {
    var directory: String
    var usedBytes: Int64
    var quotaBytes: Int64?
    var count: Int
    var videos: [DownloadRow]
}

/// One queued video in `metube download status`.
struct DownloadRow: Encodable {
    var videoId: String
    var title: String?
    var state: DownloadState?
    /// The copy's size, or what a partial download holds so far.
    var bytes: Int64

    var summary: String {
        switch state {
        case .downloaded?: "⤓ \(DownloadQuota.text(bytes))"
        case .waiting(let reason)?: "waits: \(reason)"
        case .failed(let failure, _)?: "failed: \(failure.summary)"
        case .downloading?, nil: bytes > 0 ? "partial \(DownloadQuota.text(bytes))" : "not downloaded"
        }
    }

    enum CodingKeys: String, CodingKey { case videoId, title, state, bytes, summary, error }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(videoId, forKey: .videoId)
        try container.encodeIfPresent(title, forKey: .title)
        let name = switch state {
        case .downloaded?: "downloaded"
        case .waiting?: "waiting"
        case .failed?: "failed"
        case .downloading?, nil: bytes > 0 ? "partial" : "none"
        }
        try container.encode(name, forKey: .state)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(summary, forKey: .summary)
        if case .failed(let failure, _)? = state { try container.encode(failure, forKey: .error) }
    }
}
