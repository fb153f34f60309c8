import Foundation

/// What an entry of a subscription file points at: a channel id, or the reason it names none.
enum ChannelReference: Equatable {
    /// A valid channel id.
    case channel(String)
    /// No channel can be had from the entry offline, for the reason given.
    case unusable(reason: String)

    /// Resolves a bare id, a `/channel/UC…` URL, a channel feed URL or an uploads-playlist feed URL.
    static func resolve(_ text: some StringProtocol) -> ChannelReference {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .unusable(reason: "empty entry") }
        if let id = ChannelID.extract(from: trimmed) { return .channel(id) }
        if let components = URLComponents(string: trimmed), let host = components.host?.lowercased() {
            guard isYouTube(host) else { return .unusable(reason: "not a YouTube URL (host \(host))") }
            return resolveYouTube(components)
        }
        if trimmed.hasPrefix("@") { return .unusable(reason: handleReason) }
        if trimmed.hasPrefix("UC") { return .unusable(reason: invalidIDReason(trimmed)) }
        return .unusable(reason: "not a channel id or YouTube URL")
    }

    /// Whether `host` is one of YouTube's web hosts.
    private static func isYouTube(_ host: String) -> Bool {
        host == "youtube.com" || host.hasSuffix(".youtube.com") || host == "youtu.be"
    }

    /// Resolves a YouTube URL that `ChannelID.extract` found no valid id in.
    private static func resolveYouTube(_ components: URLComponents) -> ChannelReference {
        let query = components.queryItems ?? []
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        if let id = value("channel_id") { return .unusable(reason: invalidIDReason(id)) }
        if value("user") != nil {
            return .unusable(reason: "legacy ?user= feed: a user name cannot be resolved to a channel id offline")
        }
        if let playlist = value("playlist_id") {
            return uploadsChannel(ofPlaylist: playlist).map(ChannelReference.channel)
                ?? .unusable(reason: "a playlist feed, not a channel")
        }
        let path = components.path.split(separator: "/")
        switch path.first {
        case "channel": return .unusable(reason: invalidIDReason(path.dropFirst().first ?? ""))
        case "user", "c": return .unusable(reason: "a /\(path[0])/ URL cannot be resolved to a channel id offline")
        case let first? where first.hasPrefix("@"): return .unusable(reason: handleReason)
        default: return .unusable(reason: "a YouTube URL that names no channel")
        }
    }

    /// The channel owning an uploads playlist (`UU…` or `UULF…`, `UUSH…` and kin), whose id shares the channel's tail.
    private static func uploadsChannel(ofPlaylist playlist: String) -> String? {
        guard playlist.hasPrefix("UU"), playlist.count == 24 || playlist.count == 26 else { return nil }
        let candidate = "UC" + playlist.suffix(22)
        return ChannelID.isValid(candidate) ? candidate : nil
    }

    /// Why an @handle cannot be used.
    private static let handleReason = "an @handle cannot be resolved to a channel id offline"

    /// Why `id` is not accepted as a channel id.
    private static func invalidIDReason(_ id: some StringProtocol) -> String {
        "\"\(id)\" is not a valid channel id (UC followed by 22 letters, digits, - or _)"
    }
}
