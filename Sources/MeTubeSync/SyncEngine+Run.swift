import Foundation
import MeTubeCore
import MeTubeStore

extension SyncEngine {
    /// One run of `scope`: the videos (for `.all`, when a source is set up), then the marks.
    /// A `full` run first forgets where the syncs stopped, so everything is fetched and merged
    /// again. `pace` spreads the video part's requests (nil: at once).
    func perform(_ scope: SyncScope, full: Bool, number: Int, pace: SyncPace? = nil) async -> SyncReport {
        let elapsed = stopwatch()
        var report = SyncReport(source: source?.kind ?? sourceKind)
        if Task.isCancelled {
            report.cancelled = true
        } else if full, let error = forgetSyncPositions() {
            report.error = error
        } else if scope == .all, let source {
            report = await syncVideos(from: source, pace: pace)
        } else if scope == .all, markSync == nil {
            report.error = .notConfigured("no hub URL; set [hub] url in the config file")
        } else {
            report.includesVideos = false
        }
        if let markSync, !report.cancelled {
            await syncMarks(with: markSync, into: &report)
        }
        report.run = number
        report.seconds = elapsed().seconds
        continuation.yield(.finished(report))
        return report
    }

    /// Forgets the hub watermark and the mark-sync token; the error, if the store refused.
    private func forgetSyncPositions() -> SyncError? {
        do throws(SyncError) {
            try store.forgetSyncPositions()
            return nil
        } catch {
            return error
        }
    }

    /// The video part of a run. The source counts as online when it answered, and offline when
    /// it could not be reached at all (the run failed for that reason, or every channel's feed
    /// did); a cancelled run says nothing about it.
    private func syncVideos(from source: any VideoSource, pace: SyncPace?) async -> SyncReport {
        continuation.yield(.started(source.kind))
        let progress: @Sendable (String) -> Void = { [continuation] message in continuation.yield(.progress(source.kind, message)) }
        var report = SyncReport(source: source.kind)
        do {
            report = try await source.sync(pace: pace, progress: progress)
        } catch .cancelled {
            report.cancelled = true
        } catch {
            report.error = error
        }
        if report.sourceOutage != nil {
            unreachable(.videoSource, probeDelays: configuration.outageProbeDelays)
        } else if report.sourceAnswered {
            reachable(.videoSource)
        } else if let error = report.error, error.isOffline {
            unreachable(.videoSource)
        } else if !report.cancelled, report.requests > 0, report.failedChannels.values.allSatisfy(\.isOffline) {
            unreachable(.videoSource)
        }
        return report
    }

    /// The mark-sync part of a run: push, then pull.
    private func syncMarks(with markSync: MarkSync, into report: inout SyncReport) async {
        continuation.yield(.markSyncStarted)
        do {
            report.markSync = try await markSync.run()
            reachable(.markSyncService)
        } catch {
            let failure = Self.syncError(error)
            if failure == .cancelled {
                report.cancelled = true
            } else {
                report.markSyncError = failure
                if failure.isOffline { unreachable(.markSyncService) }
            }
        }
    }

    /// A mark sync's failure as a ``SyncError``.
    private static func syncError(_ error: any Error) -> SyncError {
        switch error {
        case MarkSyncRequestFailure.cancelled, is CancellationError: .cancelled
        case let failure as MarkSyncRequestFailure: .markSync(failure)
        case let failure as StoreError: .store(failure)
        case let failure as SyncError: failure
        default: .invalidResponse(String(describing: error))
        }
    }
}
