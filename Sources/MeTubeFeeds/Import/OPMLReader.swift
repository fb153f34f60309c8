#if canImport(FoundationXML)
import Foundation
import FoundationXML
import MeTubeCore
#endif

/// Reads OPML: every `<outline>` with an `xmlUrl` is a feed; outlines without one are folders.
///
/// Broken XML stops the parser. The outlines before the break are kept and the break is reported as
/// a rejected entry; when the break comes before any feed, the file is malformed. A file holding
/// what `XMLParser` cannot read safely (``XMLParserGuard``) is malformed as a whole.
enum OPMLReader {
    /// Reads the feeds of `text` into `collector`.
    static func read(_ text: SubscriptionText, into collector: inout ImportCollector) throws(MeTubeCoreError) {
        let leading = text.content.prefix(while: \.isWhitespace)
        let skippedLines = SubscriptionText.lineBreakCount(in: leading)
        let document = Data(text.content[leading.endIndex...].utf8)
        if let (line, column, reason) = XMLParserGuard.unsafeSpot(in: document, documentTypes: .withoutDeclarations) {
            throw .malformedInput(format: SubscriptionFormat.opml.displayName, location: "line \(line + skippedLines), column \(column)", reason: reason)
        }
        let scan = OutlineScan()
        let parser = XMLParser(data: document)
        parser.delegate = scan
        _ = parser.parse()
        let sharedFolder = scan.outlines.first?.folders.first.flatMap { first in scan.outlines.allSatisfy { $0.folders.first == first } ? first : nil }
        for (index, outline) in scan.outlines.enumerated() {
            // One folder around every feed (YouTube's "YouTube Subscriptions") says nothing: no tag.
            let tags = sharedFolder == nil ? outline.folders : Array(outline.folders.dropFirst())
            collector.offer(outline.feedURL, title: outline.title, tags: tags, at: "outline \(index + 1) (line \(outline.line + skippedLines))")
        }
        guard let failure = scan.failure else { return }
        let line = failure.line + skippedLines
        let location = "line \(line), column \(failure.column)"
        let isAtEnd = line >= text.lines.count && failure.column > text.scalarCount(ofLine: line)
        let problem = isAtEnd ? "the document ends before it is complete (a truncated file?)" : describe(failure.code)
        guard !scan.outlines.isEmpty else {
            throw .malformedInput(format: SubscriptionFormat.opml.displayName, location: location, reason: problem)
        }
        collector.reject(
            text.excerpt(line: line, column: failure.column), at: location,
            reason: "broken XML: \(problem); nothing after this point was read")
    }

    /// A reason for a libxml2 error code, as `XMLParser` reports them.
    private static func describe(_ code: Int) -> String {
        switch code {
        case 4: "the document is empty"
        case 5: "text after the end of the document"
        case 9: "a character that XML does not allow"
        case 23, 68: "a bare & or < that should be written &amp; or &lt;"
        case 26: "an undefined entity"
        case 38, 39, 40: "an attribute value without quotes"
        case 41: "an attribute given twice"
        case 65: "a missing space between attributes"
        case 73: "a tag without its closing >"
        case 76: "a closing tag that does not match its opening tag"
        case 77: "a tag that is never closed"
        default: "XML error \(code)"
        }
    }
}

/// The `XMLParser` delegate that collects feed outlines until the first error.
private final class OutlineScan: NSObject, XMLParserDelegate {
    /// One feed outline.
    struct Outline {
        /// The `xmlUrl` attribute.
        let feedURL: String
        /// The `title` attribute, else the `text` attribute.
        let title: String?
        /// The line of the outline's tag.
        let line: Int
        /// The titles of the folders (outlines without `xmlUrl`) it is nested in, outermost first.
        let folders: [String]
    }

    /// Where and how the XML first broke.
    struct Failure {
        /// The line of the error.
        let line: Int
        /// The column of the error.
        let column: Int
        /// The libxml2 error code.
        let code: Int
    }

    /// The feed outlines read before any error, in document order.
    private(set) var outlines: [Outline] = []
    /// The first error, if any.
    private(set) var failure: Failure?
    /// For each open `<outline>`, its folder title: `nil` for a feed or an untitled folder.
    private var openOutlines: [String?] = []

    /// Records an `<outline>` that has an `xmlUrl`, while no error has occurred.
    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String]
    ) {
        guard failure == nil, elementName.lowercased() == "outline" else { return }
        let byName = Dictionary(attributes.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        guard let feedURL = byName["xmlurl"] else {
            openOutlines.append((byName["title"] ?? byName["text"]).flatMap { $0.isEmpty ? nil : $0 })
            return
        }
        openOutlines.append(nil)
        outlines.append(Outline(feedURL: feedURL, title: byName["title"] ?? byName["text"], line: parser.lineNumber,
                                folders: openOutlines.dropLast().compactMap { $0 }))
    }

    /// Closes an `<outline>`, leaving its folder.
    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil, elementName.lowercased() == "outline", !openOutlines.isEmpty else { return }
        openOutlines.removeLast()
    }

    /// Records the first error and where it occurred.
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard failure == nil else { return }
        failure = Failure(line: parser.lineNumber, column: parser.columnNumber, code: (parseError as NSError).code)
    }
}
