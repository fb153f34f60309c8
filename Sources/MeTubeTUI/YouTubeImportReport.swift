/// What an import of the YouTube subscriptions did, for the status line.
public struct YouTubeImportReport: Sendable, Equatable {
    /// Channels followed by this import.
    public var added: Int
    /// Channels read that were followed already.
    public var alreadyFollowed: Int
    /// Channels followed here but not subscribed on YouTube (counted only after a complete read;
    /// never unfollowed from the TUI).
    public var notSubscribed: Int
    /// Entries of the pages that were not channels.
    public var rejected: Int
    /// Why the reading stopped part way, `nil` when every page was read.
    public var failure: String?

    /// A report of `added` new and `alreadyFollowed` known channels.
    public init(added: Int, alreadyFollowed: Int, notSubscribed: Int = 0, rejected: Int = 0, failure: String? = nil) {
        self.added = added
        self.alreadyFollowed = alreadyFollowed
        self.notSubscribed = notSubscribed
        self.rejected = rejected
        self.failure = failure
    }
}
