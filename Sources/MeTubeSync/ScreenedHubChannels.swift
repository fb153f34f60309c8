import MeTubeAPI
import MeTubeTransfer

/// A `channels` answer after the boundary checks of ``PeerInput``, decoded entry by entry:
/// entries without a valid channel id are dropped and counted, titles are capped, and a title or
/// thumbnail URL of the wrong type or size is left out.
struct ScreenedHubChannels: Decodable, Sendable {
    /// The usable entries.
    var channels: [HubChannel] = []
    /// How many entries were dropped for an invalid channel id.
    var dropped = 0
    /// Where the next page starts (`nextAfterChannelId`), when it is a valid channel id.
    var nextAfterChannelID: String?

    private enum ListKeys: String, CodingKey { case channels, nextAfterChannelID = "nextAfterChannelId" }
    private enum Keys: String, CodingKey { case channelID = "channelId", title, thumbnailURL = "thumbnailUrl" }

    /// One entry, each field read on its own; never fails.
    private struct Entry: Decodable {
        var channelID: String?
        var title: String?
        var thumbnailURL: String?

        init(from decoder: any Decoder) {
            guard let entry = try? decoder.container(keyedBy: Keys.self) else { return }
            channelID = try? entry.decode(String.self, forKey: .channelID)
            title = try? entry.decode(String.self, forKey: .title)
            thumbnailURL = try? entry.decode(String.self, forKey: .thumbnailURL)
        }
    }

    /// An empty list, to collect pages into.
    init() {}

    init(from decoder: any Decoder) throws {
        let list = try decoder.container(keyedBy: ListKeys.self)
        nextAfterChannelID = (try? list.decode(String.self, forKey: .nextAfterChannelID)).flatMap { PeerInput.isChannelID($0) ? $0 : nil }
        var entries = try list.nestedUnkeyedContainer(forKey: .channels)
        while !entries.isAtEnd {
            let entry = try entries.decode(Entry.self)
            guard let id = entry.channelID, PeerInput.isChannelID(id) else {
                dropped += 1
                continue
            }
            channels.append(HubChannel(channelID: id, title: entry.title.map(PeerInput.title), thumbnailURL: PeerInput.shortText(entry.thumbnailURL)))
        }
    }
}
