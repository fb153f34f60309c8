import MeTubeYouTube

/// Stops a run's catalog calls once they fail as a whole — yt-dlp missing, too old or too slow,
/// the quota spent, or ``maxFailures`` failures — so that a broken yt-dlp or Data API costs one
/// call or a few, not one per channel, and the run's report says it in one line.
actor CatalogRunBreaker {
    /// The failures of a run after which it asks no more.
    static let maxFailures = 3

    /// The first failure, for the report.
    private(set) var firstError: YouTubeError?
    private var failures = 0
    private var stopped = false
    /// The channels left to the next run.
    private(set) var postponed = 0

    /// Whether a call may start; when not, the channel is counted as postponed.
    func allows() -> Bool {
        if stopped { postponed += 1 }
        return !stopped
    }

    /// Records a call's failure (the channel is postponed).
    func failed(_ error: YouTubeError) {
        firstError = firstError ?? error
        failures += 1
        postponed += 1
        switch error {
        case .missingExecutable, .unsupportedVersion, .timedOut, .quotaExceeded, .noResolver: stopped = true
        default: stopped = stopped || failures >= Self.maxFailures
        }
    }

    /// The report's line about the failures, if any.
    func note() -> String? {
        guard let firstError else { return nil }
        return "backfill and lengths: \(firstError); \(postponed) channel\(postponed == 1 ? "" : "s") asked again at the next sync, their feeds' videos are in"
    }
}
