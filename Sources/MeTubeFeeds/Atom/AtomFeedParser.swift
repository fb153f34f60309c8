#if canImport(FoundationXML)
import Foundation
import FoundationXML
import MeTubeCore
#endif

/// Parses YouTube Atom documents (channel feeds, playlist feeds, WebSub pushes): with
/// ``AtomScanner`` when the document is in the plain form YouTube writes, else with `XMLParser`,
/// which also gives the reason a document is refused.
///
/// Elements are matched by namespace URI, not prefix. Entities and CDATA are decoded once;
/// leading whitespace before the XML declaration is tolerated. Entries without a video id are
/// skipped; an entry's missing channel id is taken from its author or from the feed.
public enum AtomFeedParser {
    /// Parses `data`. Throws `MeTubeCoreError.malformedInput` (with line and column) when the XML is
    /// not well-formed, and `.unrecognizedFormat` when the root is not an Atom `<feed>`.
    public static func parse(_ data: Data) throws(MeTubeCoreError) -> AtomFeed {
        let document = document(in: data)
        if let feed = AtomScanner.feed(document) { return feed }
        return try parseWithXMLParser(Data(document))
    }

    /// `data` without the white space and byte order mark before its first markup.
    static func document(in data: Data) -> Data {
        let start = data.firstIndex { !(($0 == 0x20) || ($0 == 0x09) || ($0 == 0x0A) || ($0 == 0x0D)) } ?? data.endIndex
        return data[start...].starts(with: [0xEF, 0xBB, 0xBF]) ? data[(start + 3)...] : data[start...]
    }

    /// Parses `data` (its leading white space and byte order mark removed) with `XMLParser`: the
    /// documents ``AtomScanner`` leaves, and the reasons a document is refused.
    static func parseWithXMLParser(_ data: Data) throws(MeTubeCoreError) -> AtomFeed {
        if let (line, column, reason) = XMLParserGuard.unsafeSpot(in: data, documentTypes: .refused) {
            throw .malformedInput(format: "Atom feed", location: "line \(line), column \(column)", reason: reason)
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let collector = AtomCollector()
        parser.delegate = collector
        let parsed = parser.parse()
        let unclosedElement = collector.builder.unclosedElement
        if !parsed || collector.parseError != nil || unclosedElement != nil {
            let reason = unclosedElement.map { "unexpected end of document inside <\($0)>" }
                ?? (collector.parseError ?? parser.parserError).map { ($0 as NSError).localizedDescription }
                ?? "not well-formed XML"
            throw .malformedInput(
                format: "Atom feed", location: "line \(parser.lineNumber), column \(parser.columnNumber)",
                reason: collector.rootName == nil ? "no XML document (\(reason))" : reason
            )
        }
        guard collector.builder.rootIsAtomFeed else {
            throw .unrecognizedFormat(hint: "expected an Atom <feed> root element, found <\(collector.rootName ?? "nothing")>")
        }
        return collector.builder.feed()
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

/// The `XMLParser` delegate that hands the elements to an ``AtomFeedBuilder`` as the document
/// streams by.
private final class AtomCollector: NSObject, XMLParserDelegate {
    private(set) var builder = AtomFeedBuilder()
    private(set) var rootName: String?
    private(set) var parseError: (any Error)?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if builder.depth == 0 { rootName = qualifiedName ?? elementName }
        builder.start(AtomFeedBuilder.key(namespaceURI, elementName)) { attributes[$0] }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if self.parseError == nil { self.parseError = parseError }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        builder.characters(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        builder.characters(String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        builder.end()
    }
}
