import MeTubeCore

/// The OAuth client and the endpoints `metube youtube login` and `metube import --youtube` use:
/// the user's own client (`[youtube] client-id`, `client-secret`) and Google's endpoints, which
/// tests point at a loopback stub (`oauth-url`, `api-url`).
public struct YouTubeConfiguration: Sendable, Equatable {
    /// The scope asked for: reading the account's subscriptions, nothing more.
    public static let scope = "https://www.googleapis.com/auth/youtube.readonly"

    /// The OAuth client id.
    public var clientID: String
    /// The OAuth client secret (Google's device flow needs it when polling and refreshing).
    public var clientSecret: String
    /// The base of `/device/code` and `/token`, without a trailing slash.
    public var oauthURL: String
    /// The base of the Data API's `/subscriptions`, without a trailing slash.
    public var apiURL: String

    /// Creates a configuration; trailing slashes of the URLs are dropped.
    public init(clientID: String, clientSecret: String, oauthURL: String = "https://oauth2.googleapis.com", apiURL: String = "https://www.googleapis.com/youtube/v3") {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.oauthURL = Self.trimmed(oauthURL)
        self.apiURL = Self.trimmed(apiURL)
    }

    /// The `[youtube]` part of `settings`; `.noClient` when the client id or secret is
    /// not set.
    public init(settings: Settings) throws(YouTubeError) {
        guard let clientID = settings.text(.youTubeClientID), !clientID.isEmpty,
              let clientSecret = settings.text(.youTubeClientSecret), !clientSecret.isEmpty else { throw .noClient }
        self.init(clientID: clientID, clientSecret: clientSecret, oauthURL: settings.text(.youTubeOAuthURL) ?? "https://oauth2.googleapis.com",
                  apiURL: settings.text(.youTubeAPIURL) ?? "https://www.googleapis.com/youtube/v3")
    }

    private static func trimmed(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
