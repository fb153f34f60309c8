import Foundation
import MeTubeAPI
import MeTubeJSON

/// Turns raw request bodies into validated hub requests, or `ServerError.badRequest` with a
/// message that says exactly what is wrong.
enum HubRequestValidation {
    /// The distinct, trimmed, plausible channel ids of a register body.
    static func registerChannelIDs(body: some DataProtocol) throws(ServerError) -> [String] {
        let object = try object(body)
        guard let value = object["channelIds"], value != .null else {
            throw .badRequest("channelIds must be a non-empty array of strings")
        }
        let raw = try strings(value, field: "channelIds", limit: HubAPI.maxRegisterChannelIDs)
        guard !raw.isEmpty else { throw .badRequest("channelIds must be a non-empty array of strings") }
        let ids = normalized(raw)
        guard !ids.isEmpty else { throw .badRequest("no valid channel IDs") }
        return ids
    }

    /// The links of a `channels/resolve` body: 1 to `HubAPI.maxResolveLinks` strings of at most
    /// `HubAPI.maxResolveLinkBytes` bytes each.
    static func resolveLinks(body: some DataProtocol) throws(ServerError) -> [String] {
        let object = try object(body)
        guard let value = object["links"], value != .null else { throw .badRequest("links must be a non-empty array of strings") }
        let links = try strings(value, field: "links", limit: HubAPI.maxResolveLinks)
        guard !links.isEmpty else { throw .badRequest("links must be a non-empty array of strings") }
        if let index = links.firstIndex(where: { $0.utf8.count > HubAPI.maxResolveLinkBytes }) {
            throw .badRequest("links[\(index)] is longer than \(HubAPI.maxResolveLinkBytes) bytes")
        }
        return links
    }

    /// The validated selection of a `videos/query` body; an empty body means all defaults.
    ///
    /// A well-typed body (the usual case) is decoded straight into its three fields; any other
    /// goes through ``JSONValue``, which names the field of the wrong type.
    static func videoSelection(body: some DataProtocol) throws(ServerError) -> HubVideoSelection {
        guard !body.isEmpty else { return HubVideoSelection() }
        guard !JSONNesting.exceedsLimit(body) else { throw .badRequest("the body is nested deeper than \(JSONNesting.maxDepth) levels") }
        let fields: VideoQueryFields
        if let typed = try? JSONDecoder().decode(VideoQueryFields.self, from: Data(body)) {
            fields = typed
        } else {
            fields = try VideoQueryFields(object(body))
        }
        var selection = HubVideoSelection()
        if let raw = fields.channelIds {
            guard raw.count <= HubAPI.maxQueryChannelIDs else {
                throw .badRequest("channelIds has \(raw.count) entries; at most \(HubAPI.maxQueryChannelIDs) are allowed")
            }
            selection.channelIDs = normalized(raw)
            if !raw.isEmpty, selection.channelIDs.isEmpty { throw .badRequest("no valid channel IDs") }
        }
        if let afterSeq = fields.afterSeq {
            guard (0...HubAPI.maxAfterSeq).contains(afterSeq) else {
                throw .badRequest("afterSeq must be a non-negative integer no larger than \(HubAPI.maxAfterSeq)")
            }
            selection.afterSeq = afterSeq
        }
        if let limit = fields.limit {
            let range = HubAPI.queryLimitRange
            guard limit >= range.lowerBound, limit <= range.upperBound else {
                throw .badRequest("limit must be an integer from \(range.lowerBound) to \(range.upperBound)")
            }
            selection.limit = Int(limit)
        }
        return selection
    }

    /// The fields of a `videos/query` body, each nil when absent or null.
    private struct VideoQueryFields: Decodable {
        var channelIds: [String]?
        var afterSeq: Int64?
        var limit: Int64?

        /// The fields of a body that did not decode as typed: the first field of the wrong type
        /// is a `badRequest` naming it.
        init(_ object: [String: JSONValue]) throws(ServerError) {
            if let value = object["channelIds"], value != .null {
                channelIds = try strings(value, field: "channelIds", limit: HubAPI.maxQueryChannelIDs)
            }
            if let value = object["afterSeq"], value != .null {
                guard case .integer(let afterSeq) = value else {
                    throw .badRequest("afterSeq must be a non-negative integer no larger than \(HubAPI.maxAfterSeq)")
                }
                self.afterSeq = afterSeq
            }
            if let value = object["limit"], value != .null {
                guard case .integer(let limit) = value else {
                    let range = HubAPI.queryLimitRange
                    throw .badRequest("limit must be an integer from \(range.lowerBound) to \(range.upperBound)")
                }
                self.limit = limit
            }
        }
    }

    /// The page a `channels` body asks for: after which channel id, and how many; an empty body
    /// (or `null`) asks for the first page of the default size.
    static func channelsPage(body: some DataProtocol) throws(ServerError) -> (after: String?, limit: Int) {
        guard !body.isEmpty, !body.elementsEqual("null".utf8) else { return (nil, HubAPI.defaultChannelsPageSize) }
        let object = try object(body)
        var page: (after: String?, limit: Int) = (nil, HubAPI.defaultChannelsPageSize)
        if let value = object["afterChannelId"], value != .null {
            guard case .string(let after) = value, after.utf8.count <= HubAPI.channelIDLengthRange.upperBound else {
                throw .badRequest("afterChannelId must be a channel id")
            }
            page.after = after
        }
        if let value = object["limit"], value != .null {
            let range = HubAPI.channelsPageSizeRange
            guard case .integer(let limit) = value, limit >= range.lowerBound, limit <= range.upperBound else {
                throw .badRequest("limit must be an integer from \(range.lowerBound) to \(range.upperBound)")
            }
            page.limit = Int(limit)
        }
        return page
    }

    /// Trims, filters out implausible ids and removes duplicates, keeping the first occurrence's order.
    static func normalized(_ raw: [String]) -> [String] {
        var seen: Set<String> = []
        return raw.map(trimmed).filter { HubAPI.isPlausibleChannelID($0) && seen.insert($0).inserted }
    }

    /// `text` without surrounding whitespace; ids almost never have any, so that case costs nothing.
    private static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        let isSpace = { (byte: UInt8) in byte == 0x20 || (0x09...0x0D).contains(byte) }
        guard isSpace(first) || isSpace(last) || !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func object(_ body: some DataProtocol) throws(ServerError) -> [String: JSONValue] {
        guard !JSONNesting.exceedsLimit(body) else { throw .badRequest("the body is nested deeper than \(JSONNesting.maxDepth) levels") }
        guard let value = try? JSONValue.parse(body) else { throw .badRequest("invalid JSON") }
        guard case .object(let object) = value else {
            throw .badRequest("the body must be a JSON object, not \(value.kind)")
        }
        return object
    }

    private static func strings(_ value: JSONValue, field: String, limit: Int) throws(ServerError) -> [String] {
        guard case .array(let elements) = value else {
            throw .badRequest("\(field) must be an array of strings, not \(value.kind)")
        }
        guard elements.count <= limit else {
            throw .badRequest("\(field) has \(elements.count) entries; at most \(limit) are allowed")
        }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard case .string(let string) = element else {
                throw .badRequest("\(field)[\(index)] must be a string, not \(element.kind)")
            }
            strings.append(string)
        }
        return strings
    }
}
