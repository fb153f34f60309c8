import MeTubeCore
import MeTubeJSON

/// Reads NewPipe's export: an object whose `subscriptions` array holds `{service_id, url, name}` items.
///
/// Key order is not relied on. Items of other services than YouTube (`service_id` 0) are rejected.
enum NewPipeReader {
    /// NewPipe's names of its services, by service id.
    private static let serviceNames = [1: "SoundCloud", 2: "media.ccc.de", 3: "PeerTube", 4: "Bandcamp"]

    /// Reads the subscriptions of `text` into `collector`; a file that is not such an object is malformed.
    static func read(_ text: SubscriptionText, into collector: inout ImportCollector) throws(MeTubeCoreError) {
        let format = SubscriptionFormat.newPipeJSON.displayName
        let document: JSONValue
        do {
            document = try JSONValue.parse(text.content)
        } catch {
            let location = error.offset.map { offset in
                let position = text.position(ofUTF8Offset: offset)
                return "line \(position.line), column \(position.column)"
            }
            throw .malformedInput(format: format, location: location ?? "end of file", reason: "not valid JSON: \(error.message)")
        }
        guard case .object = document else {
            throw .malformedInput(format: format, location: "top level", reason: "\(document.kind) where an object is expected")
        }
        guard case let .array(items)? = document["subscriptions"] else {
            let found = document["subscriptions"].map { "\($0.kind) where an array is expected" } ?? "missing"
            throw .malformedInput(format: format, location: "subscriptions", reason: found)
        }
        for (index, item) in items.enumerated() {
            read(item, at: "subscriptions[\(index)]", into: &collector)
        }
    }

    /// Reads one item of the `subscriptions` array.
    private static func read(_ item: JSONValue, at location: String, into collector: inout ImportCollector) {
        guard case .object = item else {
            collector.reject(item.text, at: location, reason: "\(item.kind) where an object is expected")
            return
        }
        if let service = item["service_id"], service.number != 0 {
            let name = serviceNames.first { service.number == Double($0.key) }.map { " (\($0.value))" } ?? ""
            collector.reject(item["url"]?.string ?? item.text, at: "\(location).service_id", reason: "service \(service.text)\(name), not YouTube")
            return
        }
        guard let url = item["url"]?.string, !url.isEmpty else {
            collector.reject(item.text, at: "\(location).url", reason: "no channel URL")
            return
        }
        collector.offer(url, title: item["name"]?.string, at: "\(location).url")
    }
}
