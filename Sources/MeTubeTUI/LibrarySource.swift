import MeTubeCore
import MeTubeStore

/// What the TUI needs from the store: the library as a value, a way to mark, a way to pick up
/// changes made by other processes, and the store's notices for the user.
public protocol LibrarySource: Sendable {
    /// The current library.
    func library() -> Library
    /// Makes a mark durable and returns it.
    func mark(_ videoID: String, as status: WatchStatus) throws -> Mark
    /// Makes all these marks durable in one write (one journal line): the videos to give each
    /// status. Returns how many marks were written.
    func mark(_ batch: [WatchStatus: [String]]) throws -> Int
    /// Makes a change to the watch-later queue durable; returns the entries written.
    func editQueue(_ edit: QueueEdit) throws -> [QueueEntry]
    /// Makes `tags` the tags of the followed channel `channelID`; `false` when it is not followed.
    func setTags(_ tags: [String], of channelID: String) throws -> Bool
    /// Follows the channel `channelID` as `metube channels add` does (the follow syncs to the other
    /// devices); `false` when it was followed already.
    func follow(_ channelID: String) throws -> Bool
    /// Picks up changes made elsewhere; `true` when something changed.
    func refresh() throws -> Bool
    /// Each channel's last feed fetch, by channel id.
    func channelFetches() -> [String: ChannelFetchResult]
    /// Messages for the user (recovered files, read-only store), each returned once.
    func takeNotices() -> [String]
    /// Whether the journal has grown enough to be folded into new snapshots.
    var needsCompaction: Bool { get }
    /// One video's description, read on demand (the library does not hold them); `nil` when it
    /// has none or it cannot be read yet.
    func description(of videoID: String) throws -> String?
    /// Folds the journal into new snapshots.
    func compact() throws
    /// While only the newest part of the library is available: how many videos the whole holds;
    /// `nil` once it is all loaded.
    var loadingVideoCount: Int? { get }
}

extension LibrarySource {
    /// A source that loads everything before its first answer is never loading.
    public var loadingVideoCount: Int? { nil }
}

extension Store: LibrarySource {
    /// Each channel's last feed fetch, from the sync state.
    public func channelFetches() -> [String: ChannelFetchResult] { syncSnapshot().channelFetches }

    /// Makes `tags` the tags of the followed channel `channelID` in one durable step.
    public func setTags(_ tags: [String], of channelID: String) throws -> Bool {
        try transaction { $0.setTags(tags, of: channelID) }
    }

    /// Follows `channelID` in one durable step, unless it is followed already.
    public func follow(_ channelID: String) throws -> Bool {
        try transaction { transaction in
            guard transaction.library.channels[channelID] == nil else { return false }
            transaction.follow(Channel(id: channelID))
            return true
        }
    }
}
