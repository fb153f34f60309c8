/// Whether this device follows one channel, with its tags and what mark sync knows of it.
///
/// Follow versus unfollow is decided by the later hybrid clock reading (ties by device id); tags
/// merge add-wins against the server version this device last saw (``merged(onto:)``).
public struct Subscription: Codable, Sendable, Hashable {
    /// The channel id (also the record name).
    public var channelID: String
    /// The channel's title, when known.
    public var title: String?
    /// Whether the channel is followed; `false` is an unfollow, kept so that it travels.
    public var followed: Bool
    /// The user's tags for the channel, in the order given.
    public var tags: [String]
    /// The clock reading of the last follow or unfollow (tagging does not move it).
    public var hlc: HybridTimestamp
    /// The device of the last follow or unfollow.
    public var deviceID: String
    /// Whether the mark-sync service holds this value.
    public var syncState: SyncState
    /// The last server version this device knew; `nil` before the first push or pull. Its tags
    /// are the ones this device has seen, so removing a tag removes only those.
    public var base: SubscriptionVersion?

    /// Creates a subscription.
    public init(
        channelID: String, title: String? = nil, followed: Bool, tags: [String] = [], hlc: HybridTimestamp, deviceID: String,
        syncState: SyncState = .pending, base: SubscriptionVersion? = nil
    ) {
        self.channelID = channelID
        self.title = title
        self.followed = followed
        self.tags = tags
        self.hlc = hlc
        self.deviceID = deviceID
        self.syncState = syncState
        self.base = base
    }

    /// The subscription of a channel followed before subscriptions were recorded (or by a path
    /// that does not record them): pending, dated by when it was added, so a later unfollow on
    /// another device still wins.
    public init(implicit channel: Channel, deviceID: String) {
        let millis = Int64((channel.addedAt.timeIntervalSince1970 * 1000).rounded(.down))
        self.init(channelID: channel.id, title: channel.title, followed: true, tags: channel.tags ?? [],
                  hlc: HybridTimestamp(millis: min(max(millis, 0), 253_402_300_799_999)), deviceID: deviceID)
    }

    /// This subscription, not yet on the server, merged onto the server's `server` version:
    /// follow versus unfollow by the later clock reading; tags add-wins (a tag added here or there
    /// stays, a tag removed here goes only if this device had seen it, in ``base``); synced when
    /// the result is exactly the server's version, else pending on it.
    public func merged(onto server: SubscriptionVersion) -> Subscription {
        var result = self
        let seen = Set(base?.tags ?? [])
        let mine = Set(tags)
        let removedHere = seen.subtracting(mine)
        var tags = (server.tags ?? base?.tags ?? []).filter { !removedHere.contains($0) }
        for tag in self.tags where !seen.contains(tag) && !tags.contains(tag) { tags.append(tag) }
        result.tags = tags
        if (server.hlc, server.deviceID) > (hlc, deviceID) {
            result.followed = server.followed
            result.hlc = server.hlc
            result.deviceID = server.deviceID
        }
        result.title = title ?? server.title
        result.base = server
        result.syncState = result.holds(server) ? .synced : .pending
        return result
    }

    /// This device's value replaced by the server's `server` version (for a subscription the
    /// server already held exactly): synced. Tags the version says nothing about stay.
    public func adopting(_ server: SubscriptionVersion) -> Subscription {
        Subscription(channelID: channelID, title: server.title ?? title, followed: server.followed, tags: server.tags ?? tags,
                     hlc: server.hlc, deviceID: server.deviceID, syncState: .synced, base: server)
    }

    /// Whether the server's `version` holds exactly this value (follow, tags and clock reading); a
    /// version without tags does not, so this device's tags are pushed onto it.
    public func holds(_ version: SubscriptionVersion) -> Bool {
        followed == version.followed && tags == version.tags && hlc == version.hlc && deviceID == version.deviceID
    }
}
