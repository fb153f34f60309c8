import Foundation
import MeTubeCore
import MeTubeDownloads
import MeTubeStore

/// One pass over the queue's downloads, as `metube download run` and the TUI make it: the copies
/// `keep-watched` lets go are removed, the queued videos without a copy are downloaded, and what
/// failed or waits is written to the ``DownloadJournal``.
struct QueueDownloads: Sendable {
    let settings: DownloadSettings

    /// Removes the copies of videos watched `keep-watched` days ago or longer; returns their ids.
    func removeExpired(_ library: Library, now: Date = Date()) -> [String] {
        let directory = DownloadDirectory(url: settings.directory)
        let expired = DownloadQuota.expired(copies: directory.copies().keys, watchedAt: watchedAt(library), keepDays: settings.keepWatchedDays, now: now)
        expired.forEach(directory.remove)
        return expired
    }

    /// Downloads `library`'s queue with `downloader` and keeps what failed or waits. Unless
    /// `retryingLastingFailures`, a video whose last failure will not pass by itself (unavailable,
    /// no matching format, no file) is left alone: the TUI's passes do not ask for it every time.
    func download(_ library: Library, with downloader: Downloader, retryingLastingFailures: Bool = true) async -> [String: DownloadState] {
        let watchedIDs = watchedMarks(library).sorted { $0.hlc < $1.hlc }.map(\.videoID)
        var journal = DownloadJournal.load(from: settings.directory)
        let queue = library.queuedVideoIDs.filter { id in
            guard !retryingLastingFailures, case .failed(let failure, _)? = journal.entries[id] else { return true }
            return failure.isRetryable || failure.stopsEveryDownload
        }
        let states = await downloader.process(queue: queue, watched: watchedIDs)
        for (id, state) in states {
            if case .downloaded = state { journal.entries[id] = nil } else { journal.entries[id] = state }
        }
        let queued = Set(library.queuedVideoIDs)
        journal.entries = journal.entries.filter { queued.contains($0.key) }
        if FileManager.default.fileExists(atPath: settings.directory.path) { try? journal.save(to: settings.directory) }
        return states
    }

    private func watchedAt(_ library: Library) -> [String: Date] {
        Dictionary(watchedMarks(library).map { ($0.videoID, Date(millisecondsSince1970: $0.hlc.millis)) }) { first, _ in first }
    }

    /// The marks of videos watched and not queued again since: only their copies may go.
    private func watchedMarks(_ library: Library) -> [Mark] {
        library.marks.filter { $0.status == .watched && !library.isQueued($0.videoID) }
    }
}
