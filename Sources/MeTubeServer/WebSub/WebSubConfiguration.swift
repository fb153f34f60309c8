import Foundation

/// How the server takes part in WebSub (PubSubHubbub): where the hub is, how the hub reaches the
/// server, and how leases and the fallback polling are timed.
public struct WebSubConfiguration: Sendable, Equatable {
    /// YouTube's hub, the default.
    public static let youTubeHubURL = "https://pubsubhubbub.appspot.com/subscribe"
    /// The longest URL accepted for `--public-url` and `--websub-hub`.
    public static let maxURLBytes = 1_024

    /// The server's address as the hub reaches it (scheme, host, optional port and path prefix,
    /// no trailing slash); callbacks are `publicURL/websub/CHANNEL_ID`.
    public var publicURL: String
    /// The hub's subscription endpoint.
    public var hubURL: String
    /// The lease asked for in each subscription request, in seconds.
    public var requestedLeaseSeconds: Int
    /// The time between polls of a channel whose lease is live; polling stays the fallback.
    public var pushedPollInterval: Duration
    /// How long a subscribe request may wait for the hub's verification before it is sent again.
    public var verificationTimeout: Duration
    /// How many subscribe requests are in flight at once.
    public var concurrency: Int

    /// Creates a configuration; `publicURL` and `hubURL` are checked by ``validate()``.
    public init(
        publicURL: String, hubURL: String = Self.youTubeHubURL, requestedLeaseSeconds: Int = 10 * 86_400,
        pushedPollInterval: Duration = .seconds(6 * 3600), verificationTimeout: Duration = .seconds(3600), concurrency: Int = 4
    ) {
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.hubURL = hubURL
        self.requestedLeaseSeconds = requestedLeaseSeconds
        self.pushedPollInterval = pushedPollInterval
        self.verificationTimeout = verificationTimeout
        self.concurrency = concurrency
    }

    /// The topic of `channelID`'s uploads at YouTube's hub.
    public static func topic(for channelID: String) -> String {
        "https://www.youtube.com/xml/feeds/videos.xml?channel_id=\(channelID)"
    }

    /// The callback URL the hub calls for `channelID`.
    public func callbackURL(for channelID: String) -> String {
        "\(publicURL)/websub/\(channelID)"
    }

    /// Checks the settings; throws `ServerError.invalidConfiguration` naming the bad one.
    public func validate() throws(ServerError) {
        try Self.checkURL(publicURL, option: "--public-url", allowsQuery: false)
        try Self.checkURL(hubURL, option: "--websub-hub", allowsQuery: true)
        guard (60...(366 * 86_400)).contains(requestedLeaseSeconds) else {
            throw .invalidConfiguration("the requested WebSub lease must be 60…31622400 seconds")
        }
        guard pushedPollInterval > .zero, verificationTimeout > .zero else {
            throw .invalidConfiguration("WebSub intervals must be positive")
        }
        guard (1...64).contains(concurrency) else { throw .invalidConfiguration("WebSub concurrency must be 1…64") }
    }

    /// Checks that `text` is an absolute `http` or `https` URL with a host, at most
    /// ``maxURLBytes`` long, with no credentials or fragment (and no query unless `allowsQuery`).
    public static func checkURL(_ text: String, option: String, allowsQuery: Bool) throws(ServerError) {
        guard !text.isEmpty, text.utf8.count <= maxURLBytes else {
            throw .invalidConfiguration("\(option) must be a URL of 1…\(maxURLBytes) bytes")
        }
        guard text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7F }),
              let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else {
            throw .invalidConfiguration("\(option) must be an http:// or https:// URL with a host, got \(text.debugDescription)")
        }
        guard components.user == nil, components.password == nil, components.fragment == nil,
              allowsQuery || components.query == nil
        else {
            throw .invalidConfiguration("\(option) must not carry credentials, a fragment\(allowsQuery ? "" : " or a query"): \(text.debugDescription)")
        }
    }
}
