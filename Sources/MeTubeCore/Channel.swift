import Foundation

/// A YouTube channel the user follows.
public struct Channel: Codable, Sendable, Hashable, Identifiable {
    /// The channel id, `UC` followed by 22 characters.
    public var id: String
    /// The channel's title, once known from a feed or an import.
    public var title: String?
    /// The channel's avatar, when a source provided one.
    public var thumbnailURL: String?
    /// When the user subscribed here.
    public var addedAt: Date
    /// The user's tags for this channel (e.g. from an import's folders), in the order given;
    /// `nil` when a source says nothing about tags, so merging it keeps the tags already known.
    public var tags: [String]?

    /// Creates a channel.
    public init(id: String, title: String? = nil, thumbnailURL: String? = nil, addedAt: Date = Date(), tags: [String]? = nil) {
        self.id = id
        self.title = title
        self.thumbnailURL = thumbnailURL
        self.addedAt = addedAt
        self.tags = tags
    }

    /// The keys of a channel's JSON object in the store's files and backups: the one place they
    /// are spelled, used by this type's `Codable` conformance and by the store's own reader and writer.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case id, title, thumbnailURL, addedAt, tags
    }

    /// The title to show: the known title, else the id.
    public var displayName: String { title.flatMap { $0.isEmpty ? nil : $0 } ?? id }
}

/// Validation of YouTube channel ids.
public enum ChannelID {
    /// Whether `text` is a canonical channel id: `UC` and 22 characters of `[A-Za-z0-9_-]`.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[0] == UInt8(ascii: "U"), bytes[1] == UInt8(ascii: "C") else { return false }
        return bytes.allSatisfy(isIDByte)
    }

    /// Whether `byte` may appear in a YouTube id.
    public static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// Finds a channel id in a channel URL, a feed URL or a bare id; `nil` when there is none.
    public static func extract(from text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if isValid(trimmed) { return trimmed }
        for marker in ["/channel/", "channel_id="] {
            guard let range = trimmed.range(of: marker) else { continue }
            let candidate = String(decoding: trimmed[range.upperBound...].utf8.prefix(while: isIDByte), as: UTF8.self)
            if isValid(candidate) { return candidate }
        }
        return nil
    }
}
