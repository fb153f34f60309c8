import Foundation
import MeTubeCore

/// Everything one write changes; one ``StoreChange`` is one journal line, so it is applied whole or
/// not at all.
public struct StoreChange: Codable, Sendable, Equatable {
    /// Marks to record (replacing earlier ones for the same videos).
    public var marks: [Mark]
    /// Videos whose mark is forgotten (applied after `marks`).
    public var removedMarkIDs: [String]
    /// Videos to add or update.
    public var videos: [Video]
    /// Of ``videos``, those the library did not hold when the change was written (set by the
    /// store): a reader of the newest rows alone (``LibraryHead``) then knows the snapshot does not
    /// hold them either, and needs no look into it.
    public var addedVideoIDs: [String] = []
    /// Channels to add or update.
    public var channels: [Channel]
    /// Channels to remove, with their videos.
    public var removedChannelIDs: [String]
    /// The sync state after this change, whole (as lines written before ``syncChange`` did).
    public var sync: SyncSnapshot?
    /// What this change changes in the sync state (applied after ``sync``); how the store writes it.
    public var syncChange: SyncChange?
    /// Playback positions to record (a newer one of the same video already known is kept).
    public var positions: [PlaybackPosition]
    /// Subscriptions to record (replacing earlier ones for the same channels).
    public var subscriptions: [Subscription] = []
    /// Watch-later queue entries to record (a newer one of the same video already known is kept).
    public var queue: [QueueEntry] = []

    /// Creates a change.
    public init(
        marks: [Mark] = [], removedMarkIDs: [String] = [], videos: [Video] = [], channels: [Channel] = [],
        removedChannelIDs: [String] = [], sync: SyncSnapshot? = nil, positions: [PlaybackPosition] = []
    ) {
        self.marks = marks
        self.removedMarkIDs = removedMarkIDs
        self.videos = videos
        self.channels = channels
        self.removedChannelIDs = removedChannelIDs
        self.sync = sync
        self.positions = positions
    }

    /// Whether the change changes nothing.
    public var isEmpty: Bool {
        marks.isEmpty && removedMarkIDs.isEmpty && videos.isEmpty && channels.isEmpty && removedChannelIDs.isEmpty && sync == nil && syncChange == nil && positions.isEmpty
            && subscriptions.isEmpty && queue.isEmpty
    }

    private enum CodingKeys: String, CodingKey {
        case schemaVersion = "v", marks, removedMarkIDs, videos, channels, removedChannelIDs, sync, syncChange, positions, subscriptions, queue, addedVideoIDs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        marks = try container.decodeIfPresent([Mark].self, forKey: .marks) ?? []
        removedMarkIDs = try container.decodeIfPresent([String].self, forKey: .removedMarkIDs) ?? []
        videos = try container.decodeIfPresent([Video].self, forKey: .videos) ?? []
        addedVideoIDs = try container.decodeIfPresent([String].self, forKey: .addedVideoIDs) ?? []
        channels = try container.decodeIfPresent([Channel].self, forKey: .channels) ?? []
        removedChannelIDs = try container.decodeIfPresent([String].self, forKey: .removedChannelIDs) ?? []
        sync = try container.decodeIfPresent(SyncSnapshot.self, forKey: .sync)
        syncChange = try container.decodeIfPresent(SyncChange.self, forKey: .syncChange)
        positions = try container.decodeIfPresent([PlaybackPosition].self, forKey: .positions) ?? []
        subscriptions = try container.decodeIfPresent([Subscription].self, forKey: .subscriptions) ?? []
        queue = try container.decodeIfPresent([QueueEntry].self, forKey: .queue) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // A line with a sync change is one an older metube must not apply as if it had none.
        try container.encode(syncChange == nil ? currentSchemaVersion : journalLineSchemaVersion, forKey: .schemaVersion)
        if !marks.isEmpty { try container.encode(marks, forKey: .marks) }
        if !removedMarkIDs.isEmpty { try container.encode(removedMarkIDs, forKey: .removedMarkIDs) }
        if !videos.isEmpty { try container.encode(videos, forKey: .videos) }
        if !addedVideoIDs.isEmpty { try container.encode(addedVideoIDs, forKey: .addedVideoIDs) }
        if !channels.isEmpty { try container.encode(channels, forKey: .channels) }
        if !removedChannelIDs.isEmpty { try container.encode(removedChannelIDs, forKey: .removedChannelIDs) }
        try container.encodeIfPresent(sync, forKey: .sync)
        try container.encodeIfPresent(syncChange, forKey: .syncChange)
        if !positions.isEmpty { try container.encode(positions, forKey: .positions) }
        if !subscriptions.isEmpty { try container.encode(subscriptions, forKey: .subscriptions) }
        if !queue.isEmpty { try container.encode(queue, forKey: .queue) }
    }
}

/// A read-modify-write of the store under its lock: `library` and `sync` are current (changes of
/// other processes included); what the body stages in `change` is written as one journal line.
public struct StoreTransaction: Sendable {
    /// The library as it stands before this transaction.
    public let library: Library
    /// The sync state; changes to it are saved with the transaction.
    public var sync: SyncSnapshot
    /// What this transaction writes.
    public var change = StoreChange()
    var clock: HybridLogicalClock
    /// The library with the first `count` of `change.queue` applied (see StoreTransaction+Queue).
    var stagedQueue: (library: Library, count: Int)?

    /// Stages a mark made on this device now: pending, with a fresh clock reading, based on the
    /// server version the device last knew (the other device's, when this settles a conflict).
    @discardableResult
    public mutating func mark(_ videoID: String, as status: WatchStatus) -> Mark {
        let previous = change.marks.last { $0.videoID == videoID } ?? library.marks[videoID]
        let mark = Mark(videoID: videoID, status: status, hlc: clock.now(), deviceID: sync.deviceID,
                        syncState: .pending, base: previous?.syncState == .conflict ? previous?.theirs : previous?.base)
        change.marks.append(mark)
        if status != .unwatched { takeOutOfQueue(videoID) }
        return mark
    }

    /// Stages the playback position of `videoID` saved on this device now (pending), with
    /// `seconds` and `duration` clamped into range.
    @discardableResult
    public mutating func savePosition(_ videoID: String, seconds: Double, duration: Double?) -> PlaybackPosition {
        let position = PlaybackPosition(videoID: videoID, seconds: seconds, duration: duration, hlc: clock.now(), deviceID: sync.deviceID)
        change.positions.append(position)
        return position
    }

    /// Notes a clock reading seen from another device, so later local marks order after it.
    public mutating func observe(_ timestamp: HybridTimestamp) {
        clock.observe(timestamp)
    }
}
