/// A view of the feed: one of the built-in filters (`unwatched`, `all`, `watched`, `skipped`,
/// `in-progress`) or a `[views.NAME]` of the config file, whose query selects among all videos.
public struct SavedView: Sendable, Equatable {
    /// The view's name, e.g. `unwatched` or `music`.
    public var name: String
    /// The built-in filter; `.all` for a saved query.
    public var filter: FeedFilter
    /// The saved query, `nil` for a built-in view.
    public var query: VideoQuery?

    /// Creates a view.
    public init(name: String, filter: FeedFilter = .all, query: VideoQuery? = nil) {
        self.name = name
        self.filter = filter
        self.query = query
    }

    /// The built-in views, one for each ``FeedFilter``, in the order the `f` key cycles through.
    public static let builtIn = FeedFilter.allCases.map { SavedView(name: $0.rawValue, filter: $0) }

    /// Whether this is the `all` view, the one view that shows what `hide` rules hide.
    public var isAll: Bool { filter == .all && query == nil }

    /// The longest view name accepted.
    public static let maximumNameLength = 32

    /// Whether `name` may name a saved view: 1–32 characters of letters, digits, `-` and `_`.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= maximumNameLength && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
