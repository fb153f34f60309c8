import MeTubeTransfer

/// Why asking YouTube — through yt-dlp, the Data API, or the signed-in account — gave nothing
/// usable. Each case reads as one line naming what failed and what to do; no text carries an API
/// key or a token.
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

    // Signing in with YouTube (Google's OAuth 2.0 device flow) and reading the account's subscriptions.

    /// `[youtube] client-id` or `client-secret` is not set.
    case noClient
    /// No refresh token is saved: `metube youtube login` has not been run.
    case notSignedIn
    /// The user declined the request (`access_denied`).
    case accessDenied
    /// The device code expired before the user finished (`expired_token`, or `expires_in` passed).
    case expired
    /// Google does not know the client, or its secret is wrong (`invalid_client`).
    case invalidClient(String)
    /// The device code or the refresh token is no longer valid: revoked, expired, or used
    /// (`invalid_grant`).
    case invalidGrant(String)
    /// The token answer gave no refresh token, so the sign-in would not outlive the hour.
    case noRefreshToken
    /// The access token was refused (401) and a fresh one was refused too.
    case unauthorized
    /// The Data API's daily quota of the OAuth client is spent (`quotaExceeded`, 403, on the
    /// subscriptions list).
    case clientQuotaExceeded
    /// Another OAuth error the flow cannot go on from.
    case oauth(error: String, detail: String)
    /// A request to Google's OAuth endpoints or the subscriptions list failed on its way (the
    /// request's path); a cancelled sign-in is `.transfer(.cancelled, …)`.
    case transfer(TransferFailure, path: String)
    /// Google answered with an error status and no OAuth error; its message.
    case http(status: Int, message: String)
    /// Google's answer is not in the documented shape.
    case unreadable(String)
    /// Google broke a bound the reading holds it to (endless or repeating pages, too many items).
    case limitExceeded(String)

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
        case .noClient:
            "no OAuth client: set [youtube] client-id and client-secret in the config file (the README's \"Sign in with YouTube\" says how to make one)"
        case .notSignedIn: "not signed in with YouTube; run `metube youtube login`"
        case .accessDenied: "the sign-in was declined on the Google page"
        case .expired: "the code expired before the sign-in was finished; run `metube youtube login` again"
        case .invalidClient(let detail): "Google does not accept the OAuth client (invalid_client\(Self.suffix(detail))); check [youtube] client-id and client-secret"
        case .invalidGrant(let detail): "the YouTube sign-in is no longer valid (invalid_grant\(Self.suffix(detail))); it was revoked or has expired: run `metube youtube login` again"
        case .noRefreshToken: "Google gave no refresh token, so the sign-in cannot be kept; run `metube youtube login` again"
        case .unauthorized: "YouTube refused the access token even after a refresh; run `metube youtube login` again"
        case .clientQuotaExceeded: "the YouTube Data API quota of the OAuth client is spent for today (quotaExceeded); try again tomorrow"
        case .oauth(let error, let detail): "the sign-in failed: \(error)\(Self.suffix(detail))"
        case .transfer(let failure, let path): failure.explanation(path: path)
        case .http(let status, let message): "the server answered HTTP \(status)\(Self.suffix(message))"
        case .unreadable(let detail): "unreadable answer from the server: \(detail)"
        case .limitExceeded(let detail): "stopped: \(detail)"
        }
    }

    /// Whether asking again later may succeed: everything but a spent quota, which waits for the next day.
    public var isQuota: Bool {
        if case .quotaExceeded = self { return true }
        return false
    }

    /// Whether signing in again is what fixes it.
    public var needsSignIn: Bool {
        switch self {
        case .notSignedIn, .accessDenied, .expired, .invalidGrant, .noRefreshToken, .unauthorized: true
        default: false
        }
    }

    private static func suffix(_ detail: String) -> String { detail.isEmpty ? "" : ": \(detail)" }
}
