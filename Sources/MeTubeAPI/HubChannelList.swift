/// The answer to `POST /api/channels`: a page of the channels the hub holds.
public struct HubChannelList: Codable, Sendable, Equatable {
    /// The channels (metube-server: in channel id order).
    public var channels: [HubChannel]
    /// When more channels follow, the `afterChannelId` that asks for them; absent on the last page
    /// (and from hubs that do not page).
    public var nextAfterChannelID: String?

    /// Creates a list.
    public init(channels: [HubChannel], nextAfterChannelID: String? = nil) {
        self.channels = channels
        self.nextAfterChannelID = nextAfterChannelID
    }

    enum CodingKeys: String, CodingKey {
        case channels
        case nextAfterChannelID = "nextAfterChannelId"
    }
}

/// One channel in `HubChannelList`.
public struct HubChannel: Codable, Sendable, Equatable {
    /// The channel id.
    public var channelID: String
    /// The channel's title once the hub has ingested its feed; nil before.
    public var title: String?
    /// The channel's avatar, when known.
    public var thumbnailURL: String?

    /// Creates a channel entry.
    public init(channelID: String, title: String? = nil, thumbnailURL: String? = nil) {
        self.channelID = channelID
        self.title = title
        self.thumbnailURL = thumbnailURL
    }

    enum CodingKeys: String, CodingKey {
        case channelID = "channelId"
        case title
        case thumbnailURL = "thumbnailUrl"
    }

    /// Encodes every key, writing `null` for unknown values as the hub does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channelID, forKey: .channelID)
        try container.encode(title, forKey: .title)
        try container.encode(thumbnailURL, forKey: .thumbnailURL)
    }
}
