import Foundation
import MeTubeCore
import MeTubeJSON

extension SubscriptionFormat {
    /// Detects the format of a subscription file from its content; `nil` when no supported format fits.
    ///
    /// The content decides. The file name, when given, only settles what the content leaves open:
    /// `urls` marks a newsboat file, and the extensions `.json` and `.db` mark a NewPipe export and a
    /// FreeTube database that are too broken to recognise otherwise.
    public static func detect(data: Data, fileName: String? = nil) -> SubscriptionFormat? {
        guard let text = try? SubscriptionText(decoding: data) else { return nil }
        return try? identify(text, fileName: fileName)
    }

    /// The format of `text`, or an `unrecognizedFormat` error that names what the text looks like.
    static func identify(_ text: SubscriptionText, fileName: String?) throws(MeTubeCoreError) -> SubscriptionFormat {
        let name = FileNameHint(fileName)
        let body = text.content.drop(while: \.isWhitespace)
        switch body.first {
        case "<": return try identifyMarkup(body)
        case "{", "[": return try identifyJSON(text, body: body, name: name)
        default: return try identifyLines(text, name: name)
        }
    }

    /// OPML when the root element is `<opml>`.
    private static func identifyMarkup(_ body: Substring) throws(MeTubeCoreError) -> SubscriptionFormat {
        guard let root = rootElementName(of: body) else {
            throw .unrecognizedFormat(hint: "text that starts with < but holds no XML element")
        }
        switch root.lowercased() {
        case "opml": return .opml
        case "html": throw .unrecognizedFormat(hint: "an HTML page, not a subscription export")
        default:
            throw .unrecognizedFormat(hint: "an XML document whose root element is <\(root)>; subscriptions are read from OPML (<opml>)")
        }
    }

    /// The name of the first element in `body`, skipping the XML declaration, comments and doctype.
    private static func rootElementName(of body: Substring) -> Substring? {
        var rest = body
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            if let first = rest.first, first.isLetter || first == "_" {
                return rest.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            }
        }
        return nil
    }

    /// FreeTube for NeDB documents, NewPipe for an object with `subscriptions`; the file name decides for broken JSON.
    private static func identifyJSON(
        _ text: SubscriptionText, body: Substring, name: FileNameHint
    ) throws(MeTubeCoreError) -> SubscriptionFormat {
        if let whole = try? JSONValue.parse(body) {
            if isNeDBDocument(whole) { return .freeTube }
            if whole["subscriptions"] != nil { return .newPipeJSON }
            throw .unrecognizedFormat(
                hint: "JSON: \(describeShape(whole)); expected NewPipe's export (an object with \"subscriptions\") or FreeTube's profiles.db")
        }
        if let first = text.nonBlankLines.first, let document = try? JSONValue.parse(first.text), isNeDBDocument(document) {
            return .freeTube
        }
        if name.pathExtension == "db" || body.contains("\"_id\"") { return .freeTube }
        if name.pathExtension == "json" || body.contains("\"subscriptions\"") { return .newPipeJSON }
        throw .unrecognizedFormat(hint: "text that starts like JSON but is not valid JSON")
    }

    /// Whether `value` is a NeDB document: an object with `_id` or one of NeDB's `$$` markers.
    private static func isNeDBDocument(_ value: JSONValue) -> Bool {
        value["_id"] != nil || value["$$deleted"] != nil || value["$$indexCreated"] != nil
    }

    /// A JSON value's kind, with an object's first keys, for a hint.
    private static func describeShape(_ value: JSONValue) -> String {
        guard case let .object(members) = value, !members.isEmpty else { return value.kind }
        let keys = members.keys.sorted().prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
        return "an object with the keys \(keys)\(members.count > 5 ? ", …" : "")"
    }

    /// Takeout CSV for a three-column first line, else a newsboat or plain list when a line names a feed.
    private static func identifyLines(_ text: SubscriptionText, name: FileNameHint) throws(MeTubeCoreError) -> SubscriptionFormat {
        let entries = text.nonBlankLines.filter { !$0.text.drop(while: \.isWhitespace).hasPrefix("#") }
        guard let first = entries.first else {
            throw .unrecognizedFormat(hint: "text with only # comments and no entries")
        }
        let fields = try? CSVLine.fields(of: first.text)
        if let fields, fields.count == TakeoutCSVReader.columnCount, isTakeoutRow(fields) { return .takeoutCSV }
        if name.pathExtension == "csv", let fields, fields.count > 1 {
            throw .unrecognizedFormat(hint: """
                a CSV file whose first line "\(first.text.prefix(60))" is neither a Takeout header nor a Takeout row \
                (3 columns: channel id, channel URL, channel title)
                """)
        }
        let tokenized = entries.map { FeedListReader.tokens(of: $0.text) }
        guard tokenized.contains(where: { $0.first.map(namesFeed) ?? false }) else {
            throw .unrecognizedFormat(hint: "text whose first line is \"\(first.text.prefix(60))\" and no line of which holds a channel id or URL")
        }
        let isNewsboat = name.lastComponent == "urls" || tokenized.contains { $0.count > 1 }
            || entries.contains { $0.text.drop(while: \.isWhitespace).hasPrefix("\"") }
        return isNewsboat ? .newsboatURLs : .plainList
    }

    /// Whether three CSV fields are a Takeout header (any locale) or a Takeout row.
    private static func isTakeoutRow(_ fields: [String]) -> Bool {
        ChannelID.isValid(fields[0].trimmingCharacters(in: .whitespaces))
            || fields.allSatisfy { !$0.isEmpty && !$0.contains("://") }
    }

    /// Whether a line's first token names a feed: a URL, a channel id, or something on youtube.com.
    private static func namesFeed(_ token: String) -> Bool {
        token.contains("://") || ChannelID.extract(from: token) != nil || token.lowercased().contains("youtube.com")
    }
}

/// What a file name says about the format: its last path component and extension, lowercased.
private struct FileNameHint {
    /// The last path component, lowercased; empty without a name.
    let lastComponent: String
    /// The extension after the last dot, lowercased; empty when there is none.
    let pathExtension: String

    /// Reads `fileName`, which may be a path.
    init(_ fileName: String?) {
        lastComponent = fileName?.split(separator: "/").last.map { $0.lowercased() } ?? ""
        pathExtension = lastComponent.contains(".") ? String(lastComponent.split(separator: ".").last ?? "") : ""
    }
}
