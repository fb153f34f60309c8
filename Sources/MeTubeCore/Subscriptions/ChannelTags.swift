/// The bounds of a channel's tags, wherever they come from: the command line, an import, or
/// another device's `Subscription` record.
public enum ChannelTags {
    /// The most tags a channel keeps.
    public static let maxCount = 100
    /// The most characters a tag may have.
    public static let maxCharacters = 64

    /// `tag` with surrounding whitespace trimmed, when it is a usable tag: 1…``maxCharacters``
    /// characters without control, format or line-separator characters; else `nil`.
    public static func checked(_ tag: String) -> String? {
        guard tag.utf8.count <= maxCharacters * 4 else { return nil }
        let trimmed = tag.trimmingWhitespace()
        guard (1...maxCharacters).contains(trimmed.count) else { return nil }
        let isClean = trimmed.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: false
            default: true
            }
        }
        return isClean ? trimmed : nil
    }

    /// The usable tags of `tags` (see ``checked(_:)``), each once, in order, at most ``maxCount``.
    public static func bounded(_ tags: [String]) -> [String] {
        var kept: [String] = []
        for tag in tags.prefix(maxCount * 4) {
            guard kept.count < maxCount, let tag = checked(tag), !kept.contains(tag) else { continue }
            kept.append(tag)
        }
        return kept
    }
}
