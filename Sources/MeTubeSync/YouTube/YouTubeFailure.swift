/// Why signing in with YouTube or reading the subscriptions failed, in the words of Google's
/// OAuth 2.0 device flow and the Data API.
public enum YouTubeFailure: Sendable, Equatable, CustomStringConvertible {
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
    /// The Data API's daily quota is spent (`quotaExceeded`, 403).
    case quotaExceeded
    /// Another OAuth error the flow cannot go on from.
    case oauth(error: String, detail: String)

    /// Whether signing in again is what fixes it.
    public var needsSignIn: Bool {
        switch self {
        case .notSignedIn, .accessDenied, .expired, .invalidGrant, .noRefreshToken, .unauthorized: true
        case .noClient, .invalidClient, .quotaExceeded, .oauth: false
        }
    }

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .noClient:
            "no OAuth client: set [youtube] client-id and client-secret in the config file (the README's \"Sign in with YouTube\" says how to make one)"
        case .notSignedIn: "not signed in with YouTube; run `metube youtube login`"
        case .accessDenied: "the sign-in was declined on the Google page"
        case .expired: "the code expired before the sign-in was finished; run `metube youtube login` again"
        case .invalidClient(let detail): "Google does not accept the OAuth client (invalid_client\(Self.suffix(detail))); check [youtube] client-id and client-secret"
        case .invalidGrant(let detail): "the YouTube sign-in is no longer valid (invalid_grant\(Self.suffix(detail))); it was revoked or has expired: run `metube youtube login` again"
        case .noRefreshToken: "Google gave no refresh token, so the sign-in cannot be kept; run `metube youtube login` again"
        case .unauthorized: "YouTube refused the access token even after a refresh; run `metube youtube login` again"
        case .quotaExceeded: "the YouTube Data API quota of the OAuth client is spent for today (quotaExceeded); try again tomorrow"
        case .oauth(let error, let detail): "the sign-in failed: \(error)\(Self.suffix(detail))"
        }
    }

    private static func suffix(_ detail: String) -> String { detail.isEmpty ? "" : ": \(detail)" }
}
