import MeTubeCore

/// What subscription sync needs from the local store: the subscriptions waiting to be pushed,
/// the saved sync token of their zone, and an atomic read-modify-write of subscriptions together
/// with the token that goes with them.
public protocol SubscriptionStore: Sendable {
    /// Every subscription waiting to be pushed, followed channels never recorded included (as
    /// ``Subscription/init(implicit:deviceID:)``), oldest first.
    func pendingSubscriptions() throws -> [Subscription]
    /// The saved `changes/zone` sync token of the subscriptions' zone, `nil` before the first
    /// complete page.
    func subscriptionsSyncToken() throws -> String?
    /// Under the store's lock: hands `reconcile` the current subscriptions of `channelIDs` (implicit
    /// ones included; channels never followed here are absent), then saves those it returns, with
    /// the channels they follow or unfollow, `syncToken` when given and the clock reading
    /// `observed`, in one durable step.
    func reconcileSubscriptions(
        channelIDs: [String], syncToken: String?, observed: HybridTimestamp?, _ reconcile: ([String: Subscription]) -> [Subscription]
    ) throws
}
