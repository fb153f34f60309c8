import MeTubeCore
import MeTubeFeeds

/// The channel being followed from the channels view (`a`): the link typed or pasted, then, once
/// Enter was pressed on a link only the network can resolve, that link while it resolves.
public struct ChannelLinkInput: Sendable, Equatable {
    /// The text typed so far, at most ``ChannelReference/maximumLength`` bytes.
    public internal(set) var text = ""
    /// The lookup of the link being resolved to a channel id; `nil` while the user types.
    public internal(set) var resolving: ChannelLookup?
}

/// One lookup of a channel link: the link and the lookup's number, so the answer of a lookup that
/// was stopped is never taken for that of a later one of the same link.
public struct ChannelLookup: Sendable, Hashable {
    /// The link resolved.
    public var link: ChannelLink
    /// Counts the lookups the model started.
    public var number: Int
}
