import Foundation
import MeTubeCore

/// Collects the feed and entry fields of a YouTube Atom document from its elements as they
/// stream by, and builds the ``AtomFeed``. Both readers drive it (``AtomScanner``, and `XMLParser`
/// through ``AtomFeedParser``), so what a document means does not depend on which read it.
struct AtomFeedBuilder {
    private struct EntryFields {
        var id: String?
        var videoID: String?
        var channelID: String?
        var title: String?
        var link: String?
        var authorName: String?
        var authorURI: String?
        var published: String?
        var updated: String?
        var description: String?
        var thumbnailURL: String?
        var views: Int?
        var starRatings: Int?
    }

    private(set) var rootIsAtomFeed = false
    private var path: [String] = []
    private var text = ""
    private var selfLink: String?
    private var alternateLink: String?
    private var feedChannelID: String?
    private var playlistID: String?
    private var title: String?
    private var authorName: String?
    private var authorURI: String?
    private var entries: [EntryFields] = []
    private var entry: EntryFields?
    private var deleted: [String] = []
    private var deletionTimes: [String: Date] = [:]

    /// The innermost element still open, if any (when the document has ended: it was cut short).
    var unclosedElement: String? { path.last }

    /// How many elements are open.
    var depth: Int { path.count }

    /// The name elements are matched by: the local name, prefixed by a fixed short name of its
    /// namespace (`yt:`, `media:`, `at:`; none for Atom's, `?:` for any other or none), whatever
    /// prefix the document itself uses.
    static func key(_ namespace: String?, _ name: String) -> String {
        switch namespace {
        case AtomNamespace.atom: name
        case AtomNamespace.youtube: "yt:" + name
        case AtomNamespace.media: "media:" + name
        case AtomNamespace.tombstones: "at:" + name
        default: "?:" + name
        }
    }

    /// An element starts: `name` is its ``key(_:_:)``, `attribute` gives the value of an
    /// attribute (without a prefix) by name.
    mutating func start(_ name: String, attribute: (String) -> String?) {
        if path.isEmpty { rootIsAtomFeed = name == "feed" }
        path.append(name)
        text = ""
        switch (path.count, name) {
        case (2, "entry"):
            entry = EntryFields()
        case (2, "link"):
            let rel = attribute("rel")
            if rel == "self" { selfLink = attribute("href") }
            if rel == "alternate" { alternateLink = attribute("href") }
        case (2, "at:deleted-entry"):
            if let ref = attribute("ref") {
                let videoID = Self.videoID(fromTag: ref) ?? ref
                deleted.append(videoID)
                if let when = attribute("when").flatMap(ISO8601Timestamp.parse) { deletionTimes[videoID] = when }
            }
        case (3, "link") where entry != nil:
            let rel = attribute("rel")
            if rel == nil || rel == "alternate" { entry?.link = attribute("href") }
        case (_, "media:thumbnail") where entry != nil:
            if entry?.thumbnailURL == nil { entry?.thumbnailURL = attribute("url") }
        case (_, "media:statistics") where entry != nil:
            entry?.views = FeedLimits.count(text: attribute("views"))
        case (_, "media:starRating") where entry != nil:
            entry?.starRatings = FeedLimits.count(text: attribute("count"))
        default:
            break
        }
    }

    /// Text inside the current element (character data, decoded references, CDATA), in order.
    mutating func characters(_ string: String) {
        text += string
    }

    /// The innermost open element ends.
    mutating func end() {
        let value = text
        text = ""
        defer { path.removeLast() }
        let trimmed = { value.trimmingWhitespace() }
        if path.count >= 2, path[1] == "entry" {
            switch (path.count, path.last) {
            case (2, _):
                if let entry { entries.append(entry) }
                entry = nil
            case (3, "id"): entry?.id = trimmed()
            case (3, "yt:videoId"): entry?.videoID = trimmed()
            case (3, "yt:channelId"): entry?.channelID = trimmed()
            case (3, "title"): entry?.title = value
            case (3, "published"): entry?.published = trimmed()
            case (3, "updated"): entry?.updated = trimmed()
            case (4, "name") where path[2] == "author": entry?.authorName = trimmed()
            case (4, "uri") where path[2] == "author": entry?.authorURI = trimmed()
            case (4, "media:description"): entry?.description = value
            case (4, "media:title"): if entry?.title == nil { entry?.title = value }
            default: break
            }
            return
        }
        switch (path.count, path.last) {
        case (2, "title"): title = value
        case (2, "yt:channelId"): feedChannelID = trimmed()
        case (2, "yt:playlistId"): playlistID = trimmed()
        case (3, "name") where path[1] == "author": authorName = trimmed()
        case (3, "uri") where path[1] == "author": authorURI = trimmed()
        default: break
        }
    }

    /// The feed the document described.
    func feed() -> AtomFeed {
        let channelID = AtomFeedParser.channelID(AtomFeedParser.queryValue("channel_id", in: selfLink))
            ?? AtomFeedParser.channelID(feedChannelID)
            ?? AtomFeedParser.channelID(alternateLink)
            ?? AtomFeedParser.channelID(authorURI)
        let fallbackChannel = channelID ?? entries.lazy.compactMap { AtomFeedParser.channelID($0.channelID) }.first
        let parsedEntries = entries.compactMap { fields -> AtomEntry? in
            // Looked for in order, each only when the one before gave nothing.
            let sources: [() -> String?] = [{ fields.videoID }, { fields.id.flatMap(Self.videoID(fromTag:)) }, { AtomFeedParser.queryValue("v", in: fields.link) }]
            let videoID = sources.lazy.compactMap { $0()?.trimmingWhitespace() }.first { !$0.isEmpty }
            guard let videoID, VideoID.isValid(videoID) else { return nil }
            let entryChannel = AtomFeedParser.channelID(fields.channelID) ?? AtomFeedParser.channelID(fields.authorURI) ?? fallbackChannel
            guard let entryChannel else { return nil }
            return AtomEntry(
                videoID: videoID, channelID: entryChannel,
                title: DisplayText.capped(fields.title?.trimmingWhitespace() ?? ""), link: fields.link,
                authorName: fields.authorName, published: fields.published.flatMap(ISO8601Timestamp.parse),
                updated: fields.updated.flatMap(ISO8601Timestamp.parse), description: fields.description.map(FeedLimits.description),
                thumbnailURL: fields.thumbnailURL, views: fields.views, starRatings: fields.starRatings
            )
        }
        return AtomFeed(
            channelID: fallbackChannel, playlistID: playlistID ?? AtomFeedParser.queryValue("playlist_id", in: selfLink),
            title: title.map { DisplayText.capped($0.trimmingWhitespace()) },
            authorName: authorName.map { DisplayText.capped($0) }, entries: parsedEntries, deletedVideoIDs: deleted,
            deletionTimes: deletionTimes
        )
    }

    private static func videoID(fromTag tag: String) -> String? {
        let prefix = "yt:video:"
        guard tag.hasPrefix(prefix) else { return nil }
        return String(tag.dropFirst(prefix.count))
    }
}
