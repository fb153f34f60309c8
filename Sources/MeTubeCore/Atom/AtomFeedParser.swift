import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses YouTube Atom documents (channel feeds, playlist feeds, WebSub pushes) with `XMLParser`.
///
/// Elements are matched by namespace URI, not prefix. Entities and CDATA are decoded once;
/// leading whitespace before the XML declaration is tolerated. Entries without a video id are
/// skipped; an entry's missing channel id is taken from its author or from the feed.
public enum AtomFeedParser {
    /// Parses `data`. Throws `MeTubeCoreError.malformedInput` (with line and column) when the XML is
    /// not well-formed, and `.unrecognizedFormat` when the root is not an Atom `<feed>`.
    public static func parse(_ data: Data) throws(MeTubeCoreError) -> AtomFeed {
        let start = data.firstIndex { !(($0 == 0x20) || ($0 == 0x09) || ($0 == 0x0A) || ($0 == 0x0D)) } ?? data.endIndex
        let trimmed = data[start...].starts(with: [0xEF, 0xBB, 0xBF]) ? data[(start + 3)...] : data[start...]
        let parser = XMLParser(data: Data(trimmed))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let collector = AtomCollector()
        parser.delegate = collector
        let parsed = parser.parse()
        if !parsed || collector.parseError != nil || collector.unclosedElement != nil {
            let reason = collector.unclosedElement.map { "unexpected end of document inside <\($0)>" }
                ?? (collector.parseError ?? parser.parserError).map { ($0 as NSError).localizedDescription }
                ?? "not well-formed XML"
            throw .malformedInput(
                format: "Atom feed", location: "line \(parser.lineNumber), column \(parser.columnNumber)",
                reason: collector.rootName == nil ? "no XML document (\(reason))" : reason
            )
        }
        guard collector.rootIsAtomFeed else {
            throw .unrecognizedFormat(hint: "expected an Atom <feed> root element, found <\(collector.rootName ?? "nothing")>")
        }
        return collector.feed()
    }

    /// Normalizes a channel id found in a feed: adds back the `UC` prefix newer feeds drop from
    /// 22-character ids; nil when the text is not a channel id.
    static func channelID(_ raw: String?) -> String? {
        guard let raw = raw?.trimmingWhitespace(), !raw.isEmpty else { return nil }
        if ChannelID.isValid(raw) { return raw }
        if raw.utf8.count == 22, raw.utf8.allSatisfy(ChannelID.isIDByte), ChannelID.isValid("UC" + raw) { return "UC" + raw }
        return ChannelID.extract(from: raw)
    }

    /// The value of `name` in the query string of `url`, if any.
    static func queryValue(_ name: String, in url: String?) -> String? {
        guard let url, let range = url.range(of: name + "=") else { return nil }
        let value = url[range.upperBound...].prefix { $0 != "&" && $0 != "#" }
        return value.isEmpty ? nil : String(value)
    }
}

/// Namespace URIs of the documents YouTube serves.
enum AtomNamespace {
    static let atom = "http://www.w3.org/2005/Atom"
    static let youtube = "http://www.youtube.com/xml/schemas/2015"
    static let media = "http://search.yahoo.com/mrss/"
    static let tombstones = "http://purl.org/atompub/tombstones/1.0"
}

/// The `XMLParser` delegate that collects feed and entry fields while the document streams by.
private final class AtomCollector: NSObject, XMLParserDelegate {
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
    }

    private(set) var rootName: String?
    private(set) var parseError: (any Error)?
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

    func feed() -> AtomFeed {
        let channelID = AtomFeedParser.channelID(AtomFeedParser.queryValue("channel_id", in: selfLink))
            ?? AtomFeedParser.channelID(feedChannelID)
            ?? AtomFeedParser.channelID(alternateLink)
            ?? AtomFeedParser.channelID(authorURI)
        let fallbackChannel = channelID ?? entries.lazy.compactMap { AtomFeedParser.channelID($0.channelID) }.first
        let parsedEntries = entries.compactMap { fields -> AtomEntry? in
            let videoID = [fields.videoID, fields.id.flatMap(Self.videoID(fromTag:)), AtomFeedParser.queryValue("v", in: fields.link)]
                .compactMap { $0?.trimmingWhitespace() }.first { !$0.isEmpty }
            guard let videoID, VideoID.isValid(videoID) else { return nil }
            let entryChannel = AtomFeedParser.channelID(fields.channelID) ?? AtomFeedParser.channelID(fields.authorURI) ?? fallbackChannel
            guard let entryChannel else { return nil }
            return AtomEntry(
                videoID: videoID, channelID: entryChannel,
                title: DisplayText.capped(fields.title?.trimmingWhitespace() ?? ""), link: fields.link,
                authorName: fields.authorName, published: fields.published.flatMap(ISO8601Timestamp.parse),
                updated: fields.updated.flatMap(ISO8601Timestamp.parse), description: fields.description,
                thumbnailURL: fields.thumbnailURL, views: fields.views
            )
        }
        return AtomFeed(
            channelID: fallbackChannel, playlistID: playlistID ?? AtomFeedParser.queryValue("playlist_id", in: selfLink),
            title: title.map { DisplayText.capped($0.trimmingWhitespace()) },
            authorName: authorName.map { DisplayText.capped($0) }, entries: parsedEntries, deletedVideoIDs: deleted
        )
    }

    private static func videoID(fromTag tag: String) -> String? {
        let prefix = "yt:video:"
        guard tag.hasPrefix(prefix) else { return nil }
        return String(tag.dropFirst(prefix.count))
    }

    private static func key(_ namespace: String?, _ name: String) -> String {
        switch namespace {
        case AtomNamespace.atom: name
        case AtomNamespace.youtube: "yt:" + name
        case AtomNamespace.media: "media:" + name
        case AtomNamespace.tombstones: "at:" + name
        default: "?:" + name
        }
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let name = Self.key(namespaceURI, elementName)
        if path.isEmpty {
            rootName = qualifiedName ?? elementName
            rootIsAtomFeed = name == "feed"
        }
        path.append(name)
        text = ""
        switch (path.count, name) {
        case (2, "entry"):
            entry = EntryFields()
        case (2, "link"):
            if attributes["rel"] == "self" { selfLink = attributes["href"] }
            if attributes["rel"] == "alternate" { alternateLink = attributes["href"] }
        case (2, "at:deleted-entry"):
            if let ref = attributes["ref"] { deleted.append(Self.videoID(fromTag: ref) ?? ref) }
        case (3, "link") where entry != nil:
            if attributes["rel"] == nil || attributes["rel"] == "alternate" { entry?.link = attributes["href"] }
        case (_, "media:thumbnail") where entry != nil:
            if entry?.thumbnailURL == nil { entry?.thumbnailURL = attributes["url"] }
        case (_, "media:statistics") where entry != nil:
            entry?.views = attributes["views"].flatMap { Int($0) }
        default:
            break
        }
    }

    /// The innermost element still open when the document ended, if the document was cut short.
    var unclosedElement: String? { path.last }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if self.parseError == nil { self.parseError = parseError }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
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
}
