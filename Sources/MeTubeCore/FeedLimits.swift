/// The bounds on what a feed or a hub says about a video beyond its title (description, view and
/// rating counts), applied wherever such a value enters: the Atom reader (server polling and
/// WebSub, the client's direct mode) and the client's screening of hub pages.
public enum FeedLimits {
    /// The most UTF-8 bytes of a description kept: YouTube allows 5,000 characters, which is at
    /// most 15,000 bytes in the scripts feeds use (20,000 for emoji); longer text is cut at a
    /// character boundary.
    public static let maxDescriptionBytes = 16_384
    /// The largest view or rating count kept: 2^53 − 1, far above any real count (the most viewed
    /// video has about 2^34), and the largest that every JSON reader reads exactly (those that
    /// read numbers as doubles included). A larger or negative count is no count: not clamped,
    /// since a clamped figure would be printed as if it were exact.
    public static let maxCount = (1 << 53) - 1

    /// `count` when it is a plausible count, 0…``maxCount``; nil for a negative or huge one.
    public static func count(_ count: Int?) -> Int? {
        guard let count, (0...maxCount).contains(count) else { return nil }
        return count
    }

    /// `text` cut to at most ``maxDescriptionBytes`` bytes, at a character boundary.
    public static func description(_ text: String) -> String {
        guard text.utf8.count > maxDescriptionBytes else { return text }
        var kept = 0
        var end = text.startIndex
        for index in text.indices {
            let next = text.index(after: index)
            let size = text.utf8.distance(from: index, to: next)
            guard kept + size <= maxDescriptionBytes else { break }
            kept += size
            end = next
        }
        return String(text[..<end])
    }

    /// A count read from feed text (`views="23088"`): digits only, nil when unreadable or out of
    /// range.
    public static func count(text: String?) -> Int? {
        guard let text, !text.isEmpty, text.utf8.count <= 20, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return count(Int(text))
    }
}
