import MeTubeCore
import MeTubeJSON

/// Reads FreeTube's `profiles.db`, a NeDB append log: one JSON document per line, the last copy of an `_id` wins.
///
/// The built-in `allChannels` profile holds every subscription, so when it exists its channels are
/// read and the other profiles only tag them with their names; otherwise every profile is read, in
/// the order they first appear, and tags its channels likewise. Unreadable lines are rejected.
enum FreeTubeReader {
    /// The winning copy of a profile document.
    private struct Profile {
        /// The document's `_id`, when it has one.
        let id: String?
        /// The line number of the copy.
        let line: Int
        /// The document's `subscriptions` member.
        let subscriptions: JSONValue
        /// The profile's name, when it has one.
        let name: String?
    }

    /// The `_id` of FreeTube's built-in profile.
    private static let allChannelsID = "allChannels"

    /// Reads the subscriptions of `text` into `collector`; a file without any profile is malformed.
    static func read(_ text: SubscriptionText, into collector: inout ImportCollector) throws(MeTubeCoreError) {
        let profiles = latestProfiles(in: text, into: &collector)
        guard !profiles.isEmpty else {
            throw .malformedInput(
                format: SubscriptionFormat.freeTube.displayName, location: "whole file",
                reason: "no document with a \"subscriptions\" array; expected FreeTube's profiles.db")
        }
        let chosen = profiles.first { $0.id == allChannelsID }.map { [$0] } ?? profiles
        for profile in chosen {
            read(profile, into: &collector)
        }
        for profile in profiles where profile.id != allChannelsID {
            guard let name = profile.name, case let .array(items) = profile.subscriptions else { continue }
            for item in items {
                if let id = item["id"]?.string { collector.tag(id, with: name) }
            }
        }
    }

    /// The last copy of every document that has a `subscriptions` member, in order of first appearance.
    private static func latestProfiles(in text: SubscriptionText, into collector: inout ImportCollector) -> [Profile] {
        var latest: [String: Profile] = [:]
        var order: [String] = []
        for (number, line) in text.nonBlankLines {
            let document: JSONValue
            do {
                document = try JSONValue.parse(line)
            } catch {
                collector.reject(line, at: "line \(number)", reason: "not a JSON document: \(error.message)")
                continue
            }
            guard case .object = document else {
                collector.reject(line, at: "line \(number)", reason: "\(document.kind) where a document object is expected")
                continue
            }
            let id = document["_id"]?.string
            let key = id ?? "line \(number)"
            if document["$$deleted"] == .bool(true) {
                latest[key] = nil
            } else if let subscriptions = document["subscriptions"] {
                if !order.contains(key) { order.append(key) }
                latest[key] = Profile(id: id, line: number, subscriptions: subscriptions, name: document["name"]?.string)
            }
        }
        return order.compactMap { latest[$0] }
    }

    /// Reads the `subscriptions` of one profile: `{id, name, thumbnail}` items.
    private static func read(_ profile: Profile, into collector: inout ImportCollector) {
        let location = "line \(profile.line), subscriptions"
        guard case let .array(items) = profile.subscriptions else {
            collector.reject(profile.subscriptions.text, at: location, reason: "\(profile.subscriptions.kind) where an array is expected")
            return
        }
        for (index, item) in items.enumerated() {
            guard let id = item["id"]?.string else {
                collector.reject(item.text, at: "\(location)[\(index)].id", reason: "no channel id")
                continue
            }
            collector.offer(id, title: item["name"]?.string, thumbnailURL: item["thumbnail"]?.string, at: "\(location)[\(index)].id")
        }
    }
}
