/// The chapters and links of a video's description: chapters from its timestamp lines
/// (`0:00 Intro`, `12:34 - Results`, `1:02:03 Outro`), links from its `http(s)://` addresses
/// (trailing punctuation left off; a link ends at a control or bidi character, so none can reach a
/// terminal or the clipboard).
///
/// A description is outside input: at most ``maxChapters`` chapters and ``maxLinks`` links are
/// kept, a chapter title is cut to ``maxTitleCharacters`` characters, a link longer than
/// ``maxLinkBytes`` is left out, and only the first ``maxScannedBytes`` bytes are read. Text is
/// kept as written; display it through ``DisplayText``.
public struct DescriptionOutline: Sendable, Equatable {
    /// One chapter: where it starts and its title.
    public struct Chapter: Sendable, Equatable {
        /// Seconds from the start.
        public var start: Int
        /// The text after the timestamp (a leading `-`, `–`, `—`, `|` or `:` removed).
        public var title: String

        /// Creates a chapter.
        public init(start: Int, title: String) {
            self.start = start
            self.title = title
        }
    }

    /// The most chapters kept.
    public static let maxChapters = 200
    /// The most links kept.
    public static let maxLinks = 100
    /// The longest chapter title kept, in characters.
    public static let maxTitleCharacters = 200
    /// The longest link kept, in bytes.
    public static let maxLinkBytes = 2_048
    /// How much of a description is read, in bytes.
    public static let maxScannedBytes = 100_000

    /// The chapters, in the description's order.
    public var chapters: [Chapter]
    /// The distinct links, in the description's order.
    public var links: [String]

    /// The outline of `description`.
    public init(_ description: String) {
        chapters = []
        links = []
        var seenLinks: Set<String> = []
        let text = description.utf8.count > Self.maxScannedBytes ? String(decoding: description.utf8.prefix(Self.maxScannedBytes), as: UTF8.self) : description
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            if chapters.count < Self.maxChapters, let chapter = Self.chapter(line) { chapters.append(chapter) }
            guard links.count < Self.maxLinks else { continue }
            for word in line.split(whereSeparator: \.isWhitespace) {
                guard let start = word.range(of: "https://")?.lowerBound ?? word.range(of: "http://")?.lowerBound else { continue }
                var link = String(word[start...].prefix { !"\"'<>()[]{}".contains($0) && !$0.isWhitespace && !$0.unicodeScalars.contains(where: DisplayText.isControl) })
                while let last = link.last, ".,;:!?".contains(last) { link.removeLast() }
                guard link.utf8.count <= Self.maxLinkBytes, link.count > 8, !seenLinks.contains(link), links.count < Self.maxLinks else { continue }
                seenLinks.insert(link)
                links.append(link)
            }
        }
    }

    /// The chapter a line starts, when it starts with `M:SS` or `H:MM:SS` and a title.
    private static func chapter(_ line: Substring) -> Chapter? {
        let trimmed = line.drop { $0.isWhitespace }
        let stamp = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ":") }
        let parts = stamp.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) }), parts.dropFirst().allSatisfy({ $0.count == 2 }) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let start = numbers.reduce(0) { $0 * 60 + $1 }
        let rest = trimmed.dropFirst(stamp.count)
        guard rest.first?.isWhitespace == true || rest.isEmpty else { return nil }
        let title = rest.drop { $0.isWhitespace || "-–—|:".contains($0) }
        guard !title.isEmpty else { return nil }
        return Chapter(start: start, title: String(title.prefix(maxTitleCharacters)))
    }
}
