import MeTubeCore

extension StoreTransaction {
    /// Stages following `channel` on this device now: the channel is added (its title and tags
    /// kept when already known) and its subscription is pending, with a fresh clock reading.
    public mutating func follow(_ channel: Channel) {
        let known = subscription(of: channel.id)
        var subscription = Subscription(channelID: channel.id, title: channel.title ?? known?.title, followed: true,
                                        tags: channel.tags ?? known?.tags ?? [], hlc: clock.now(), deviceID: sync.deviceID, base: known?.base)
        change.channels.append(channel)
        if let known, known.followed {
            // Following again what is followed changes only what `channel` says.
            subscription.hlc = known.hlc
            subscription.deviceID = known.deviceID
            subscription.syncState = known.syncState
            if subscription == known { return }
            subscription.syncState = .pending
        }
        change.subscriptions.append(subscription)
    }

    /// Stages unfollowing `channelID` on this device now: the channel and its videos leave the
    /// library, and the unfollow is kept as a pending subscription so that it travels.
    public mutating func unfollow(_ channelID: String) {
        let known = subscription(of: channelID)
        change.removedChannelIDs.append(channelID)
        change.subscriptions.append(Subscription(channelID: channelID, title: known?.title, followed: false, tags: known?.tags ?? [],
                                                 hlc: clock.now(), deviceID: sync.deviceID, base: known?.base))
    }

    /// Stages `tags` as the tags of the followed channel `channelID` (their order kept, repeats
    /// left out); the subscription becomes pending without moving its follow's clock reading.
    /// Returns `false` when the channel is not followed.
    @discardableResult
    public mutating func setTags(_ tags: [String], of channelID: String) -> Bool {
        guard var channel = change.channels.last(where: { $0.id == channelID }) ?? library.channels[channelID],
              var subscription = subscription(of: channelID), subscription.followed else { return false }
        var unique: [String] = []
        for tag in tags where !unique.contains(tag) { unique.append(tag) }
        guard unique != subscription.tags || channel.tags != unique else { return true }
        channel.tags = unique
        subscription.tags = unique
        subscription.syncState = .pending
        change.channels.append(channel)
        change.subscriptions.append(subscription)
        return true
    }

    /// The subscription of `channelID` as this transaction stands: staged, recorded or implicit.
    public func subscription(of channelID: String) -> Subscription? {
        change.subscriptions.last { $0.channelID == channelID } ?? library.subscription(of: channelID, deviceID: sync.deviceID)
    }
}
