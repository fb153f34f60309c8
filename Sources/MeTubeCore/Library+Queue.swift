extension Library {
    /// Records a queue entry unless a newer one of the same video is already known; the same
    /// reading replaces it (a sync noting that the service holds it).
    public mutating func apply(_ entry: QueueEntry) {
        if let known = queue[entry.videoID], known.isNewer(than: entry) { return }
        queue[entry.videoID] = entry
    }

    /// Whether `videoID` is in the watch-later queue: queued, and not marked watched or skipped
    /// after it was queued (by this device or another, MeTube iOS included).
    public func isQueued(_ videoID: String) -> Bool {
        guard let entry = queue[videoID], entry.isQueued else { return false }
        guard let mark = marks[videoID], mark.status != .unwatched else { return true }
        return (mark.hlc, mark.deviceID) < (entry.hlc, entry.deviceID)
    }

    /// The queued videos' ids in queue order: earliest `queuedAt` first.
    public var queuedVideoIDs: [String] {
        queue.values.filter { isQueued($0.videoID) }.sorted { $0.precedes($1) }.map(\.videoID)
    }
}

extension Library {
    /// The entry that adds `videoID` to the end of the queue, written by `deviceID` at `hlc`'s
    /// time, or just after the last queued video when that one's time is not behind it (so videos
    /// added within one millisecond keep their order and can be swapped). Its clock reading is
    /// never behind its `queuedAt` (a peer reads a later `queuedAt` as that reading); the caller's
    /// clock observes it. `nil` when the video is queued.
    public func entryAdding(_ videoID: String, hlc: HybridTimestamp, deviceID: String) -> QueueEntry? {
        guard !isQueued(videoID) else { return nil }
        let last = queue.values.lazy.compactMap(\.queuedAt).max() ?? 0
        let queuedAt = min(max(hlc.millis, last + 1), QueueEntry.maxMillis)
        return QueueEntry(videoID: videoID, queuedAt: queuedAt, hlc: max(hlc, HybridTimestamp(millis: queuedAt)), deviceID: deviceID)
    }

    /// The entry that takes `videoID` out of the queue (without `queuedAt`, so the removal
    /// syncs); `nil` when it has no queued entry.
    public func entryRemoving(_ videoID: String, hlc: HybridTimestamp, deviceID: String) -> QueueEntry? {
        guard queue[videoID]?.isQueued == true else { return nil }
        return QueueEntry(videoID: videoID, queuedAt: nil, hlc: hlc, deviceID: deviceID)
    }

    /// The entries that swap the places of two queued videos: each takes the other's `queuedAt`;
    /// of two queued within one millisecond, the one to go first is moved a millisecond earlier
    /// (never later than the entry's own clock reading). None when either is not queued.
    public func entriesSwapping(_ first: String, _ second: String, hlc: HybridTimestamp, deviceID: String) -> [QueueEntry] {
        guard isQueued(first), isQueued(second), let a = queue[first], let b = queue[second],
              var firstAt = b.queuedAt, var secondAt = a.queuedAt else { return [] }
        if firstAt == secondAt { a.precedes(b) ? (secondAt -= 1) : (firstAt -= 1) }
        return [QueueEntry(videoID: first, queuedAt: firstAt, hlc: hlc, deviceID: deviceID),
                QueueEntry(videoID: second, queuedAt: secondAt, hlc: hlc, deviceID: deviceID)]
    }
}
