import MeTubeStore

extension Store {
    /// Runs a store transaction for a sync, reporting a store failure as `SyncError.store`.
    func syncTransaction<T: Sendable>(_ body: (inout StoreTransaction) -> T) throws(SyncError) -> T {
        do {
            return try transaction(body)
        } catch {
            throw .store(error)
        }
    }

    /// Forgets where the syncs stopped, so the next sync fetches and merges everything again (a
    /// force full resync): the hub watermark and the channels the hub acknowledged, the status
    /// sync tokens (marks and subscriptions), and direct mode's conditional-GET validators. Videos, channels and marks stay;
    /// merging is idempotent (videos and marks are keyed by id), and pending and conflicting
    /// marks are kept and pushed.
    public func forgetSyncPositions() throws(SyncError) {
        try syncTransaction { transaction in
            transaction.sync.hubWatermark = 0
            transaction.sync.hubRegisteredChannelIDs = []
            transaction.sync.markSyncToken = nil
            transaction.sync.subscriptionsSyncToken = nil
            for (channelID, var fetch) in transaction.sync.channelFetches {
                fetch.etag = nil
                fetch.lastModified = nil
                transaction.sync.channelFetches[channelID] = fetch
            }
        }
    }
}
