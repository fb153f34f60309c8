import MeTubeCore
import MeTubeStore

extension Store: SubscriptionStore {
    public func pendingSubscriptions() throws -> [Subscription] {
        try refresh()
        let library = library()
        let deviceID = syncSnapshot().deviceID
        let recorded = library.subscriptions.values.filter { $0.syncState != .synced }
        let implicit = library.channels.values.filter { library.subscriptions[$0.id] == nil }.map { Subscription(implicit: $0, deviceID: deviceID) }
        return (recorded + implicit).sorted { ($0.hlc, $0.channelID) < ($1.hlc, $1.channelID) }
    }

    public func subscriptionsSyncToken() throws -> String? {
        try refresh()
        return syncSnapshot().subscriptionsSyncToken
    }

    public func reconcileSubscriptions(
        channelIDs: [String], syncToken: String?, observed: HybridTimestamp?, _ reconcile: ([String: Subscription]) -> [Subscription]
    ) throws {
        try transaction { transaction in
            var current: [String: Subscription] = [:]
            for id in channelIDs { current[id] = transaction.subscription(of: id) }
            for subscription in reconcile(current) {
                transaction.change.subscriptions.append(subscription)
                let channel = transaction.library.channels[subscription.channelID]
                if subscription.followed {
                    var followed = channel ?? Channel(id: subscription.channelID)
                    followed.title = followed.title ?? subscription.title
                    followed.tags = subscription.tags
                    if followed != channel { transaction.change.channels.append(followed) }
                } else if channel != nil {
                    transaction.change.removedChannelIDs.append(subscription.channelID)
                }
            }
            if let syncToken { transaction.sync.subscriptionsSyncToken = syncToken }
            if let observed { transaction.observe(observed) }
        }
    }
}
