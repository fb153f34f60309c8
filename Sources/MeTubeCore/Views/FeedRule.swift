/// A `[[rules]]` entry of the config file: what its query matches among new videos is skipped
/// (a real mark, synced like any other) or hidden from every view but `all`.
///
/// Rules are tried in the order written and the first that matches a video decides for it, so
/// when a `skip` rule and a `hide` rule both match, the one written first wins.
public struct FeedRule: Sendable, Equatable {
    /// What a rule does to the videos it matches.
    public enum Action: String, Sendable, CaseIterable {
        /// Marks them skipped (only new videos the user has not marked).
        case skip
        /// Leaves them out of every view but `all`, changing nothing else.
        case hide
    }

    /// The rule's name: its `name`, else `rule N` (N its place in the file, from 1).
    public var name: String
    /// What it matches.
    public var query: VideoQuery
    /// What it does.
    public var action: Action

    /// Creates a rule.
    public init(name: String, query: VideoQuery, action: Action) {
        self.name = name
        self.query = query
        self.action = action
    }
}
