import MeTubeCore
import MeTubeFeeds

/// Following a channel from the channels view (`a`): any link form is read offline, a handle,
/// name or video is resolved by the loop in the background, and the id is followed as
/// `metube channels add` follows it.
extension ScreenModel {
    /// Opens the one-line prompt for a channel link.
    mutating func startFollowing() {
        followInput = ChannelLinkInput()
    }

    /// Edits the link: Enter follows it (or starts resolving it), Esc leaves. While it resolves,
    /// only Esc does something: it stops the lookup, and nothing is followed.
    mutating func handleFollowInput(_ key: Key) -> [Effect] {
        guard var input = followInput else { return [] }
        if input.resolving != nil {
            guard key == .escape else { return [] }
            followInput = nil
            message = FooterMessage(text: "stopped resolving; nothing was followed", isError: false)
            return [.cancelChannelResolution]
        }
        switch PromptKey.apply(key, to: &input.text, maxBytes: ChannelReference.maximumLength) {
        case .submit:
            return submitFollow(input.text)
        case .cancel:
            followInput = nil
        case .edited:
            followInput = input
        case .ignored:
            break
        }
        return []
    }

    /// Follows an id at once, asks for a link to be resolved, or says why the text names no channel.
    private mutating func submitFollow(_ text: String) -> [Effect] {
        switch ChannelReference.parse(text) {
        case .channel(let id):
            followInput = nil
            return [.follow(channelID: id)]
        case .link(let link):
            channelLookups += 1
            let lookup = ChannelLookup(link: link, number: channelLookups)
            followInput?.resolving = lookup
            return [.resolveChannel(lookup)]
        case .unusable(let reason):
            followInput = nil
            let shown = text.trimmingWhitespace().isEmpty ? "" : "\(DisplayText.line(text, limit: 60)): "
            message = FooterMessage(text: "\(shown)\(DisplayText.line(reason, limit: 200)); nothing was followed", isError: true)
            return []
        }
    }

    /// Follows the id `lookup` resolved to, unless it was stopped meanwhile.
    mutating func channelResolved(_ lookup: ChannelLookup, to channelID: String) -> [Effect] {
        guard followInput?.resolving == lookup else { return [] }
        guard ChannelID.isValid(channelID) else { return channelNotResolved(lookup, reason: "the answer is not a channel id") }
        followInput = nil
        return [.follow(channelID: channelID)]
    }

    /// Says on one line why the link of `lookup` has no channel, unless it was stopped meanwhile.
    mutating func channelNotResolved(_ lookup: ChannelLookup, reason: String) -> [Effect] {
        guard followInput?.resolving == lookup else { return [] }
        followInput = nil
        message = FooterMessage(text: "\(DisplayText.line(lookup.link.description, limit: 60)): \(DisplayText.line(reason, limit: 300)); nothing was followed", isError: true)
        return []
    }

    /// Selects the channel just followed and says so; a new one is fetched by a sync, when one is configured.
    mutating func channelFollowed(_ channelID: String, added: Bool) -> [Effect] {
        if screen == .channels, let index = channelList.firstIndex(where: { $0.id == channelID }) {
            channelCursor.select(index, count: channelList.count, visible: listHeight)
        }
        let name = DisplayText.line(library.channels[channelID]?.displayName ?? channelID, limit: 60)
        guard added else {
            message = FooterMessage(text: "already following \(name)", isError: false)
            return []
        }
        let syncs = services.values.contains { $0 != .notConfigured }
        message = FooterMessage(text: "following \(name)" + (syncs ? "; syncing its videos…" : ""), isError: false)
        return syncs ? [.syncNow] : []
    }
}
