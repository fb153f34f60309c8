/// The body of `POST /api/channels/register`.
public struct HubRegisterRequest: Codable, Sendable, Equatable {
    /// The channel ids to register (at most `HubAPI.maxRegisterChannelIDs`).
    public var channelIDs: [String]

    /// Creates a request for `channelIDs`.
    public init(channelIDs: [String]) { self.channelIDs = channelIDs }

    enum CodingKeys: String, CodingKey {
        case channelIDs = "channelIds"
    }
}

/// The answer to `POST /api/channels/register`.
public struct HubRegisterResponse: Codable, Sendable, Equatable {
    /// How many distinct plausible ids the request carried.
    public var requested: Int
    /// How many of them were new to the hub.
    public var inserted: Int
    /// How many of them the hub already had.
    public var alreadyPresent: Int
    /// How many channels the hub holds now.
    public var totalChannels: Int
    /// How many of the requested channels the hub is fetching for the first time right now; when
    /// above 0 their videos arrive within seconds and the client should sync again shortly.
    /// Absent from hubs that do not fetch new channels at once.
    public var pendingChannels: Int?

    /// Creates an answer from its counts.
    public init(requested: Int, inserted: Int, alreadyPresent: Int, totalChannels: Int, pendingChannels: Int? = nil) {
        self.requested = requested
        self.inserted = inserted
        self.alreadyPresent = alreadyPresent
        self.totalChannels = totalChannels
        self.pendingChannels = pendingChannels
    }
}
