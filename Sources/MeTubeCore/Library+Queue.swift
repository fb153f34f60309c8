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
    /// The entry that adds `videoID` to the end of the queue, written at `hlc` by `deviceID`:
    /// queued at `hlc`'s time, or just after the last queued video when that one's time is not
    /// behind it (so the order added is kept within a millisecond). `nil` when it is queued.
    public func entryAdding(_ videoID: String, hlc: HybridTimestamp, deviceID: String) -> QueueEntry? {
        guard !isQueued(videoID) else { return nil }
        let last = queue.values.lazy.compactMap(\.queuedAt).max() ?? 0
        return QueueEntry(videoID: videoID, queuedAt: min(max(hlc.millis, last + 1), QueueEntry.maxMillis), hlc: hlc, deviceID: deviceID)
    }

    /// The entry that takes `videoID` out of the queue (without `queuedAt`, so the removal
    /// syncs); `nil` when it has no queued entry.
    public func entryRemoving(_ videoID: String, hlc: HybridTimestamp, deviceID: String) -> QueueEntry? {
        guard queue[videoID]?.isQueued == true else { return nil }
        return QueueEntry(videoID: videoID, queuedAt: nil, hlc: hlc, deviceID: deviceID)
    }

    /// The entries that swap the places of two queued videos (their `queuedAt` values; a tie is
    /// broken by a millisecond so the order changes); none when either is not queued.
    public func entriesSwapping(_ first: String, _ second: String, hlc: HybridTimestamp, deviceID: String) -> [QueueEntry] {
        guard isQueued(first), isQueued(second), let a = queue[first], let b = queue[second],
              var earlier = a.queuedAt, var later = b.queuedAt else { return [] }
        if earlier == later { a.precedes(b) ? (later += 1) : (earlier += 1) }
        return [QueueEntry(videoID: first, queuedAt: later, hlc: hlc, deviceID: deviceID),
                QueueEntry(videoID: second, queuedAt: earlier, hlc: hlc, deviceID: deviceID)]
    }
}
