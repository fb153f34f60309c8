import Foundation
import MeTubeCore

/// Downloads the queued videos that have no copy yet, at most `[download] concurrency` at a time
/// (one at a time under a quota, so the quota holds), retrying failures with backoff at the end
/// of the line so that a failing video never holds up the others.
public actor Downloader {
    /// How often and how soon a failed download is tried again.
    public struct Retry: Sendable {
        /// Attempts per video in one run.
        public var attempts: Int
        /// The wait before the second attempt; each further one waits twice as long.
        public var firstDelay: Duration

        /// A retry policy.
        public init(attempts: Int = 3, firstDelay: Duration = .seconds(15)) {
            self.attempts = max(1, attempts)
            self.firstDelay = firstDelay
        }
    }

    private let runner: YTDLPRun
    private let retry: Retry
    private let directory: DownloadDirectory
    private let onChange: @Sendable (String, DownloadState) -> Void
    /// Each video's state in this run.
    public private(set) var states: [String: DownloadState] = [:]

    /// A downloader running `runner`; `onChange` hears every state change (progress included).
    public init(runner: YTDLPRun, retry: Retry = Retry(), onChange: @escaping @Sendable (String, DownloadState) -> Void = { _, _ in }) {
        self.runner = runner
        self.retry = retry
        directory = DownloadDirectory(url: runner.settings.directory)
        self.onChange = onChange
    }

    private struct Pending {
        var videoID: String
        var attempts = 0
        var notBefore = ContinuousClock.now
    }

    private enum Finished {
        case outcome(Pending, DownloadOutcome)
        case timer
    }

    /// Downloads `queue` (video ids in queue order) until each has a copy, waits for room, failed
    /// for good or used its attempts; `watched` are the watched videos' ids, oldest watched
    /// first, whose copies the quota may remove. Returns each video's state.
    public func process(queue: [String], watched: [String]) async -> [String: DownloadState] {
        var pending = queue.filter { VideoID.isValid($0) && directory.copy(of: $0) == nil }.map { Pending(videoID: $0) }
        let slots = runner.settings.quotaBytes == nil ? runner.settings.concurrency : 1
        await withTaskGroup(of: Finished.self) { group in
            var running = 0
            var timerRunning = false
            while true {
                while running < slots, let index = pending.firstIndex(where: { $0.notBefore <= .now }) {
                    var next = pending.remove(at: index)
                    next.attempts += 1
                    running += 1
                    let room = room(for: next.videoID)
                    set(next.videoID, .downloading(nil))
                    group.addTask { [runner, next] in
                        .outcome(next, await runner.download(next.videoID, room: room) { report in
                            Task { await self.progress(next.videoID, report) }
                        })
                    }
                }
                if !timerRunning, running < slots, let soonest = pending.map(\.notBefore).min() {
                    timerRunning = true
                    group.addTask { try? await Task.sleep(until: soonest); return .timer }
                }
                guard let finished = await group.next() else { break }
                switch finished {
                case .timer:
                    timerRunning = false
                    if Task.isCancelled { group.cancelAll() }
                case .outcome(let attempt, let outcome):
                    running -= 1
                    if let again = settle(attempt, outcome, watched: watched) { pending.append(again) }
                    if case .failed(let failure, _) = states[attempt.videoID], failure.stopsEveryDownload {
                        for other in pending { set(other.videoID, .failed(failure, attempts: other.attempts)) }
                        pending.removeAll()
                    }
                }
                if Task.isCancelled { pending.removeAll() }
            }
        }
        return states
    }

    /// The bytes `videoID` may take under the quota (its own partial file counts as room); `nil`
    /// without a quota.
    private func room(for videoID: String) -> Int64? {
        guard let limit = runner.settings.quotaBytes else { return nil }
        return limit - (directory.usedBytes() - directory.bytes(of: videoID))
    }

    /// Records how `attempt` ended; returns it again when it is to be retried.
    private func settle(_ attempt: Pending, _ outcome: DownloadOutcome, watched: [String]) -> Pending? {
        switch outcome {
        case .downloaded:
            set(attempt.videoID, .downloaded)
        case .cancelled:
            states[attempt.videoID] = nil
        case .doesNotFit(let needed):
            guard let limit = runner.settings.quotaBytes else { return nil }
            let copies = directory.copies()
            let removable = watched.filter { $0 != attempt.videoID }.compactMap { id in copies[id].map { (videoID: id, bytes: $0.bytes) } }
            let used = directory.usedBytes()
            if let removals = DownloadQuota.removals(limit: limit, used: used, needed: needed, watched: removable), !removals.isEmpty {
                removals.forEach(directory.remove)
                return Pending(videoID: attempt.videoID, attempts: attempt.attempts - 1)
            }
            set(attempt.videoID, .waiting(reason: "needs \(DownloadQuota.text(needed)); \(DownloadQuota.text(max(0, limit - used))) left of the \(DownloadQuota.text(limit)) quota"))
        case .failed(let failure):
            set(attempt.videoID, .failed(failure, attempts: attempt.attempts))
            guard failure.isRetryable, attempt.attempts < retry.attempts else { return nil }
            var again = attempt
            again.notBefore = .now + retry.firstDelay * (1 << (attempt.attempts - 1))
            return again
        }
        return nil
    }

    /// A progress report of `videoID`'s download. Reports arrive on tasks of their own, possibly
    /// after the download's outcome was settled, so one counts only while it is still downloading.
    private func progress(_ videoID: String, _ report: DownloadProgress) {
        guard case .downloading? = states[videoID] else { return }
        set(videoID, .downloading(report))
    }

    private func set(_ videoID: String, _ state: DownloadState) {
        states[videoID] = state
        onChange(videoID, state)
    }
}
