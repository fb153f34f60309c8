/// The optional body of `POST /api/channels`: which page of the registered channels to answer.
public struct HubChannelsRequest: Codable, Sendable, Equatable {
    /// Only channels whose id sorts after this one (the previous page's `nextAfterChannelId`);
    /// nil starts at the first.
    public var afterChannelID: String?
    /// The page size, `HubAPI.channelsPageSizeRange` (default `HubAPI.defaultChannelsPageSize`).
    public var limit: Int?

    /// Creates a request.
    public init(afterChannelID: String? = nil, limit: Int? = nil) {
        self.afterChannelID = afterChannelID
        self.limit = limit
    }

    enum CodingKeys: String, CodingKey {
        case afterChannelID = "afterChannelId"
        case limit
    }
}
