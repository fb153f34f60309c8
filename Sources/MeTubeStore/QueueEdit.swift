import MeTubeCore

/// One change the user makes to the watch-later queue.
public enum QueueEdit: Sendable, Equatable {
    /// Put the video at the end of the queue (a queued one keeps its place).
    case add(String)
    /// Take the video out of the queue.
    case remove(String)
    /// Swap the places of two queued videos.
    case swap(String, String)
}

extension StoreTransaction {
    /// Stages `edit`; returns the entries it writes (none when it changes nothing).
    @discardableResult
    public mutating func edit(_ edit: QueueEdit) -> [QueueEntry] {
        let before = change.queue.count
        switch edit {
        case .add(let videoID): addToQueue(videoID)
        case .remove(let videoID): takeOutOfQueue(videoID)
        case .swap(let first, let second): swapInQueue(first, second)
        }
        return Array(change.queue[before...])
    }
}

extension Store {
    /// Makes `edit` durable (journal append + fsync) and returns the entries it wrote.
    @discardableResult
    public func editQueue(_ edit: QueueEdit) throws(StoreError) -> [QueueEntry] {
        try transaction { $0.edit(edit) }
    }
}
