/// A channel's `Subscription` record as the mark-sync service holds it: the change tag that names
/// the version, and what it says.
public struct SubscriptionVersion: Codable, Sendable, Hashable {
    /// The server's change tag for this version of the record.
    public var changeTag: String
    /// Whether the channel is followed; `false` is an unfollow kept as a tombstone.
    public var followed: Bool
    /// The channel's tags; `nil` when the writer said nothing about tags (a client that does not
    /// know them), which changes no tags.
    public var tags: [String]?
    /// The channel's title, when the writer knew it.
    public var title: String?
    /// The clock reading of the follow or unfollow.
    public var hlc: HybridTimestamp
    /// The device that followed or unfollowed.
    public var deviceID: String

    /// Creates a server version.
    public init(changeTag: String, followed: Bool, tags: [String]?, title: String? = nil, hlc: HybridTimestamp, deviceID: String) {
        self.changeTag = changeTag
        self.followed = followed
        self.tags = tags
        self.title = title
        self.hlc = hlc
        self.deviceID = deviceID
    }
}
