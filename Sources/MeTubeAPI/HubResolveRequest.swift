/// The body of `POST /api/channels/resolve`: links a user gave (`@handle`, `/c/`, `/user/`,
/// video links, `UC…` ids, any host variant), at most `HubAPI.maxResolveLinks`, each at most
/// `HubAPI.maxResolveLinkBytes` bytes.
public struct HubResolveRequest: Codable, Sendable, Equatable {
    /// The links, as the user gave them or in their canonical `https://www.youtube.com/…` form.
    public var links: [String]

    /// Creates a request for `links`.
    public init(links: [String]) { self.links = links }
}

/// The answer to `POST /api/channels/resolve`: one result per link of the request, in its order.
public struct HubResolveResponse: Codable, Sendable, Equatable {
    /// The results, one per requested link.
    public var results: [HubResolveResult]

    /// Creates an answer.
    public init(results: [HubResolveResult]) { self.results = results }
}

/// What the hub made of one link: its channel id, or why there is none.
public struct HubResolveResult: Codable, Sendable, Equatable {
    /// The link as it was sent.
    public var link: String
    /// The channel's `UC…` id; nil when the link could not be resolved.
    public var channelID: String?
    /// Why the link has no channel id, one line for people; nil when it has one.
    public var error: String?
    /// The kind of failure, for programs; nil when the link has a channel id.
    public var code: HubResolveFailure?

    /// A resolved link.
    public init(link: String, channelID: String) {
        self.link = link
        self.channelID = channelID
    }

    /// A link that could not be resolved, with why.
    public init(link: String, failure: HubResolveFailure, error: String) {
        self.link = link
        code = failure
        self.error = error
    }

    enum CodingKeys: String, CodingKey {
        case link
        case channelID = "channelId"
        case error, code
    }
}

/// Why the hub gave a link no channel id. An unknown word reads as ``unavailable``.
public enum HubResolveFailure: String, Codable, Sendable, Equatable {
    /// The text is not a YouTube channel, handle, name or video link.
    case invalid
    /// YouTube says the handle, name or video does not exist.
    case notFound
    /// The hub's Data API quota for the day is spent.
    case quotaExceeded
    /// The user's lookups for the hour are spent; send the link again later.
    case throttled
    /// The lookup did not finish within this request; it goes on, so send the link again.
    case pending
    /// The hub cannot resolve now (no key nor yt-dlp, yt-dlp failing, YouTube unreachable).
    case unavailable

    public init(from decoder: any Decoder) throws {
        self = Self(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .unavailable
    }
}
