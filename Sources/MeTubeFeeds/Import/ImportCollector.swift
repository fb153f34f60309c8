import Foundation
import MeTubeCore

/// Gathers the entries a reader finds: channels once each in file order, and the rejected rest.
struct ImportCollector {
    /// The `addedAt` every imported channel gets.
    let importedAt: Date
    /// The channels so far.
    private(set) var channels: [Channel] = []
    /// The rejected entries so far.
    private(set) var rejected: [RejectedEntry] = []
    /// The entries naming their channel by a link only the network resolves, each link once.
    private(set) var links: [LinkEntry] = []
    /// The longest thumbnail URL kept, in bytes.
    static let thumbnailURLLimit = 2_048
    /// Where each accepted channel id, and each link's ``ChannelLink/key``, was first seen.
    private var firstLocations: [String: String] = [:]
    /// The place of each accepted channel in ``channels``.
    private var places: [String: Int] = [:]

    /// Creates an empty collector stamping channels with `importedAt`.
    init(importedAt: Date) {
        self.importedAt = importedAt
    }

    /// Takes the entry at `location` whose id or URL is `reference`: a new channel, a duplicate or a rejection.
    ///
    /// A title or thumbnail that is empty, and a title that merely repeats the id, count as absent;
    /// a title is cut to ``DisplayText/titleLimit`` characters, and a thumbnail URL longer than
    /// ``thumbnailURLLimit`` bytes is dropped. `tags` (a folder, profile or newsboat tags) are
    /// bounded by ``ChannelTags``; none given leaves the channel's tags unsaid.
    mutating func offer(_ reference: some StringProtocol, title: String?, thumbnailURL: String? = nil, tags: [String] = [], at location: String) {
        switch ChannelReference.parse(reference) {
        case let .unusable(reason):
            reject(reference, at: location, reason: reason)
        case let .link(link):
            if let first = firstLocations[link.key] {
                reject(reference, at: location, reason: "duplicate of \(first)")
                return
            }
            firstLocations[link.key] = location
            let tags = ChannelTags.bounded(tags)
            links.append(LinkEntry(location: location, text: String(reference), link: link,
                                   title: title.flatMap { $0.isEmpty ? nil : DisplayText.capped($0) }, tags: tags))
        case let .channel(id):
            if let first = firstLocations[id] {
                reject(reference, at: location, reason: "duplicate of \(first)")
                return
            }
            firstLocations[id] = location
            places[id] = channels.count
            let tags = ChannelTags.bounded(tags)
            let title = title.flatMap { $0.isEmpty || $0 == id ? nil : DisplayText.capped($0) }
            let thumbnailURL = thumbnailURL.flatMap { $0.isEmpty || $0.utf8.count > Self.thumbnailURLLimit ? nil : $0 }
            channels.append(Channel(id: id, title: title, thumbnailURL: thumbnailURL, addedAt: importedAt, tags: tags.isEmpty ? nil : tags))
        }
    }

    /// Adds `tag` to the channel `reference` names, when it was accepted already (a FreeTube
    /// profile naming a channel of the full list).
    mutating func tag(_ reference: some StringProtocol, with tag: String) {
        guard case let .channel(id) = ChannelReference.parse(reference), let place = places[id] else { return }
        channels[place].tags = ChannelTags.bounded((channels[place].tags ?? []) + [tag])
    }

    /// Records the entry at `location` holding `text` as rejected for `reason`.
    mutating func reject(_ text: some StringProtocol, at location: String, reason: String) {
        rejected.append(RejectedEntry(location: location, text: text, reason: reason))
    }
}
