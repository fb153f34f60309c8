/// Why asking YouTube — through yt-dlp or the Data API — gave nothing usable. Each case reads as
/// one line naming what failed and what to do; no text carries an API key.
public enum YouTubeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configured yt-dlp is not an executable file, on the path or at the path given.
    case missingExecutable(String)
    /// yt-dlp refused an option the project passes: it is older than the options metube uses.
    case unsupportedVersion(String)
    /// yt-dlp did not finish within its deadline and was killed.
    case timedOut(seconds: Int)
    /// The task asking was cancelled (the program stopping); yt-dlp was killed.
    case cancelled
    /// yt-dlp or the Data API answered something that is not in the documented shape or is too large.
    case garbage(String)
    /// yt-dlp exited with a nonzero status; the last line it wrote to stderr.
    case failed(status: Int32, lastLine: String)
    /// The Data API's daily quota is spent (`quotaExceeded`, `dailyLimitExceeded`).
    case quotaExceeded(String)
    /// The Data API could not be reached or answered an error other than a spent quota.
    case upstream(String)
    /// The handle, name or video a link names does not exist (as YouTube answered).
    case notFound(String)
    /// Neither a Data API key nor yt-dlp is set, so a link cannot be resolved; the two ways to set one, as the caller names them.
    case noResolver(key: String, ytDLP: String)

    public var description: String {
        switch self {
        case .missingExecutable(let command): "yt-dlp not found: \(command) is not an executable (set [download] command or --yt-dlp)"
        case .unsupportedVersion(let line): "yt-dlp is too old for the options metube passes (\(line)); update it"
        case .timedOut(let seconds): "yt-dlp did not answer within \(seconds) s and was stopped; retrying later"
        case .cancelled: "stopped before yt-dlp answered"
        case .garbage(let detail): "unusable answer: \(detail)"
        case .failed(let status, let lastLine): "yt-dlp exited with status \(status): \(lastLine.isEmpty ? "no message" : lastLine)"
        case .quotaExceeded(let detail): "YouTube Data API quota spent: \(detail); retrying after the next UTC day"
        case .upstream(let detail): "YouTube Data API failed: \(detail)"
        case .notFound(let link): "\(link) does not exist on YouTube"
        case .noResolver(let key, let ytDLP): "cannot resolve handles, names or videos to channels: set a YouTube Data API key (\(key)) or yt-dlp (\(ytDLP))"
        }
    }

    /// Whether asking again later may succeed: everything but a spent quota, which waits for the next day.
    public var isQuota: Bool {
        if case .quotaExceeded = self { return true }
        return false
    }
}
