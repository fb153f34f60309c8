/// A query in metube's query language, the one `metube list --query`, saved views, rules and the
/// TUI share: terms such as `unwatched`, `tag:music`, `channel:"name"`, `title~"regex"`,
/// `duration>10m`, `age<7d` and `short`, joined by `and`, `or`, `not` (or `!`) and parentheses.
///
/// Parsing checks everything a query can get wrong (syntax, unknown terms, invalid regular
/// expressions, out-of-range amounts) and names the column; evaluation cannot fail, and bounds
/// every title regex (see ``BoundedRegex``).
public struct VideoQuery: Sendable, Equatable, CustomStringConvertible {
    /// The longest query accepted, in characters.
    public static let maximumLength = 16_384

    /// The query as written.
    public let text: String
    private let root: QueryNode

    /// Parses `text`; an error names the column (1-based, in characters) and what is wrong.
    public init(parsing text: String) throws(MeTubeCoreError) {
        guard text.count <= Self.maximumLength else {
            throw .invalidQuery(column: Self.maximumLength + 1, reason: "a query is at most \(Self.maximumLength) characters")
        }
        var parser = QueryParser(tokens: try QueryLexer.tokens(of: text))
        self.text = text
        root = try parser.parseQuery().folded
    }

    private init(text: String, root: QueryNode) {
        self.text = text
        self.root = root
    }

    /// The query both this one and `other` must satisfy.
    public func and(_ other: VideoQuery) -> VideoQuery {
        VideoQuery(text: "(\(text)) and (\(other.text))", root: .and([root, other.root]))
    }

    /// Whether `video` satisfies the query; title regexes stopped by their limit are counted in
    /// `context` and count as not matching.
    public func matches(_ video: Video, in context: inout QueryContext) -> Bool {
        root.matches(video, in: &context)
    }

    public var description: String { text }

    public static func == (lhs: VideoQuery, rhs: VideoQuery) -> Bool { lhs.text == rhs.text }
}
