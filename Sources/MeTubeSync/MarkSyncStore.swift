import MeTubeCore

/// What mark sync needs from the local store: the pending marks, the saved sync token, and an
/// atomic read-modify-write of marks together with the token that goes with them.
public protocol MarkSyncStore: Sendable {
    /// Every mark waiting to be pushed (state `pending`), oldest first, other processes' marks
    /// included.
    func pendingMarks() throws -> [Mark]
    /// The saved `changes/zone` sync token, `nil` before the first complete pull.
    func markSyncToken() throws -> String?
    /// Under the store's lock: hands `reconcile` the current marks of `videoIDs` (videos without
    /// a mark are absent), then saves the marks it returns and forgets those it removes,
    /// `syncToken` when given, and the clock reading `observed`, in one durable step.
    /// `pullFinished` records the time of the last complete mark sync.
    func reconcileMarks(
        videoIDs: [String], syncToken: String?, observed: HybridTimestamp?, pullFinished: Bool,
        _ reconcile: ([String: Mark]) -> MarkSyncUpdate
    ) throws
    /// Positions waiting to be pushed whose video has no mark or a synced one (a pending mark's
    /// push carries its video's position; one in conflict waits until it is settled), oldest first.
    func pendingPositions() throws -> [PendingPosition]
    /// The playback positions of `videoIDs` that the store knows.
    func playbackPositions(of videoIDs: [String]) throws -> [String: PlaybackPosition]
    /// Queue entries waiting to be pushed whose video has no mark or a synced one (as for
    /// ``pendingPositions()``), oldest first.
    func pendingQueueEntries() throws -> [PendingQueueEntry]
    /// The watch-later queue entries of `videoIDs` that the store knows.
    func queueEntries(of videoIDs: [String]) throws -> [String: QueueEntry]
}

/// What one status reconciliation changes in the store.
public struct MarkSyncUpdate: Sendable {
    /// Marks to save.
    public var marks: [Mark]
    /// Videos whose mark is forgotten: the server deleted a record this device had as synced.
    public var removedVideoIDs: [String]
    /// Playback positions to save; a newer one already in the store is kept.
    public var positions: [PlaybackPosition]
    /// Watch-later queue entries to save; a newer one already in the store is kept.
    public var queue: [QueueEntry]

    /// Creates an update.
    public init(marks: [Mark], removedVideoIDs: [String] = [], positions: [PlaybackPosition] = [], queue: [QueueEntry] = []) {
        self.marks = marks
        self.removedVideoIDs = removedVideoIDs
        self.positions = positions
        self.queue = queue
    }
}

/// A playback position waiting to be pushed, with the video's mark (which the record carries too).
public struct PendingPosition: Sendable {
    /// The position.
    public var position: PlaybackPosition
    /// The video's mark, `nil` when it has none.
    public var mark: Mark?

    /// Creates a pending position.
    public init(position: PlaybackPosition, mark: Mark?) {
        self.position = position
        self.mark = mark
    }
}

/// A watch-later queue entry waiting to be pushed, with the video's mark (which the record
/// carries too).
public struct PendingQueueEntry: Sendable {
    /// The entry.
    public var entry: QueueEntry
    /// The video's mark, `nil` when it has none.
    public var mark: Mark?

    /// Creates a pending queue entry.
    public init(entry: QueueEntry, mark: Mark?) {
        self.entry = entry
        self.mark = mark
    }
}

extension MarkSyncStore {
    /// None: a store without a watch-later queue.
    public func pendingQueueEntries() throws -> [PendingQueueEntry] { [] }

    /// None: a store without a watch-later queue.
    public func queueEntries(of videoIDs: [String]) throws -> [String: QueueEntry] { [:] }

    /// None: a store without playback positions.
    public func pendingPositions() throws -> [PendingPosition] { [] }

    /// None: a store without playback positions.
    public func playbackPositions(of videoIDs: [String]) throws -> [String: PlaybackPosition] { [:] }
}
