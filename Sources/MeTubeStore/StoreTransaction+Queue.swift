import MeTubeCore

extension StoreTransaction {
    /// Stages adding `videoID` to the end of the watch-later queue (pending, queued now); a video
    /// already in the queue keeps its place, and `nil` is returned.
    @discardableResult
    public mutating func addToQueue(_ videoID: String) -> QueueEntry? {
        stage(staged.entryAdding(videoID, hlc: clock.now(), deviceID: sync.deviceID).map { [$0] } ?? []).first
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

    /// The library with this transaction's queue entries applied.
    private var staged: Library {
        guard !change.queue.isEmpty else { return library }
        var staged = library
        for entry in change.queue { staged.apply(entry) }
        return staged
    }

    private mutating func stage(_ entries: [QueueEntry]) -> [QueueEntry] {
        change.queue += entries
        return entries
    }
}
