import Foundation
import MeTubeCore

/// What a pasted link or an entry of a subscription file points at, read offline: a channel id,
/// a link only the network can turn into one, or the reason it names no channel.
public enum ChannelReference: Hashable, Sendable {
    /// A valid channel id.
    case channel(String)
    /// A handle, custom name, legacy user or video: the channel id needs the network.
    case link(ChannelLink)
    /// No channel can be had from the entry, for the reason given.
    case unusable(reason: String)

    /// The longest entry read, in UTF-8 bytes; a longer one is unusable.
    public static let maximumLength = 2_048

    /// Reads `text`: a bare id or `@handle`, a channel, handle, `/c/`, `/user/` or video URL of any
    /// YouTube host (with or without scheme, any query parameters, percent-encoded or not), or a
    /// channel or uploads-playlist feed URL.
    public static func parse(_ text: some StringProtocol) -> ChannelReference {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .unusable(reason: "empty entry") }
        guard trimmed.utf8.count <= maximumLength else { return .unusable(reason: "longer than \(maximumLength) bytes") }
        if let id = ChannelID.extract(from: trimmed) { return .channel(id) }
        if let url = YouTubeURL(trimmed) {
            guard url.isYouTube else { return .unusable(reason: "not a YouTube URL (host \(DisplayText.line(url.host, limit: 60)))") }
            return parseYouTube(url)
        }
        if trimmed.hasPrefix("@") { return handle(trimmed.dropFirst().removingPercentEncoding ?? "") }
        if trimmed.hasPrefix("UC") { return .unusable(reason: invalidIDReason(trimmed)) }
        return .unusable(reason: "not a channel id, @handle or YouTube URL")
    }

    /// The channel id, when known offline.
    public var channelID: String? {
        if case let .channel(id) = self { id } else { nil }
    }

    /// Reads a URL of a YouTube host that `ChannelID.extract` found no valid id in.
    private static func parseYouTube(_ url: YouTubeURL) -> ChannelReference {
        guard let path = url.pathSegments else { return .unusable(reason: "a YouTube URL with broken percent-encoding") }
        if url.isShortLink { return video(path.first ?? "") }
        if let id = url.query("channel_id") { return .unusable(reason: invalidIDReason(id)) }
        if let user = url.query("user") { return name(user, as: ChannelLink.user) }
        if let playlist = url.query("playlist_id") ?? url.query("list") {
            return uploadsChannel(ofPlaylist: playlist).map(ChannelReference.channel)
                ?? .unusable(reason: "a playlist, not a channel")
        }
        switch path.first {
        case "watch": return video(url.query("v") ?? "")
        case "shorts", "live", "embed", "v", "e": return video(path.dropFirst().first ?? "")
        case "channel": return .unusable(reason: invalidIDReason(path.dropFirst().first ?? ""))
        case "c": return name(path.dropFirst().first ?? "", as: ChannelLink.customName)
        case "user": return name(path.dropFirst().first ?? "", as: ChannelLink.user)
        case let first? where first.hasPrefix("@"): return handle(first.dropFirst())
        default: return .unusable(reason: "a YouTube URL that names no channel or video")
        }
    }

    /// A handle, checked against YouTube's rules: 3 to 30 letters (of any script), digits, `_`, `-` or `.`.
    private static func handle(_ name: some StringProtocol) -> ChannelReference {
        guard (3...30).contains(name.count), name.allSatisfy(isNameCharacter) else {
            return .unusable(reason: "\"@\(DisplayText.line(name, limit: 40))\" is not a valid handle (3 to 30 letters, digits, _, - or .)")
        }
        return .link(.handle(String(name)))
    }

    /// A custom or legacy user name: 1 to 100 letters, digits, `_`, `-` or `.`.
    private static func name(_ name: some StringProtocol, as link: (String) -> ChannelLink) -> ChannelReference {
        guard (1...100).contains(name.count), name.allSatisfy(isNameCharacter) else {
            return .unusable(reason: "\"\(DisplayText.line(name, limit: 40))\" is not a valid channel name (letters, digits, _, - or .)")
        }
        return .link(link(String(name)))
    }

    /// A video id: 11 characters of `[A-Za-z0-9_-]`.
    private static func video(_ id: some StringProtocol) -> ChannelReference {
        guard id.utf8.count == 11, id.utf8.allSatisfy(ChannelID.isIDByte) else {
            return .unusable(reason: "\"\(DisplayText.line(id, limit: 40))\" is not a valid video id (11 letters, digits, - or _)")
        }
        return .link(.video(String(id)))
    }

    /// Whether `character` may appear in a handle or channel name.
    private static func isNameCharacter(_ character: Character) -> Bool {
        character == "_" || character == "-" || character == "." || character.isLetter || character.isNumber
    }

    /// The channel owning an uploads playlist (`UU…` or `UULF…`, `UUSH…` and kin), whose id shares the channel's tail.
    private static func uploadsChannel(ofPlaylist playlist: String) -> String? {
        guard playlist.hasPrefix("UU"), playlist.count == 24 || playlist.count == 26 else { return nil }
        let candidate = "UC" + playlist.suffix(22)
        return ChannelID.isValid(candidate) ? candidate : nil
    }

    /// Why `id` is not accepted as a channel id.
    private static func invalidIDReason(_ id: some StringProtocol) -> String {
        "\"\(DisplayText.line(id, limit: 40))\" is not a valid channel id (UC followed by 22 letters, digits, - or _)"
    }
}
