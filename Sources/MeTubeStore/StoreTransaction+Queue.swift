import MeTubeCore

extension StoreTransaction {
    /// Stages adding `videoID` to the end of the watch-later queue (pending, queued now); a video
    /// already in the queue keeps its place, and `nil` is returned.
    @discardableResult
    public mutating func addToQueue(_ videoID: String) -> QueueEntry? {
        guard let entry = staged.entryAdding(videoID, hlc: clock.now(), deviceID: sync.deviceID) else { return nil }
        clock.observe(entry.hlc)
        return stage([entry]).first
    }

    /// Stages taking `videoID` out of the watch-later queue (an entry without `queuedAt`, so the
    /// removal syncs); nothing, and `nil`, when it is not queued.
    @discardableResult
    public mutating func takeOutOfQueue(_ videoID: String) -> QueueEntry? {
        stage(staged.entryRemoving(videoID, hlc: clock.now(), deviceID: sync.deviceID).map { [$0] } ?? []).first
    }

    /// Stages swapping the places of two queued videos; nothing when either is not queued.
    public mutating func swapInQueue(_ first: String, _ second: String) {
        stage(staged.entriesSwapping(first, second, hlc: clock.now(), deviceID: sync.deviceID))
    }

    /// The library with this transaction's queue entries applied, brought up to date with what
    /// was staged since it was last asked for (so staging a thousand adds stays linear).
    private var staged: Library {
        mutating get {
            var (staged, count) = stagedQueue ?? (library, 0)
            if count > change.queue.count { (staged, count) = (library, 0) }
            stagedQueue = nil
            for entry in change.queue[count...] { staged.apply(entry) }
            stagedQueue = (staged, change.queue.count)
            return staged
        }
    }

    private mutating func stage(_ entries: [QueueEntry]) -> [QueueEntry] {
        change.queue += entries
        return entries
    }
}
