import MeTubeCore

/// An entry of a subscription file that names its channel by a link only the network resolves.
public struct LinkEntry: Sendable, Hashable {
    /// Where the entry is, such as `line 12`.
    public var location: String
    /// The entry as written.
    public var text: String
    /// The link read from it.
    public var link: ChannelLink
    /// The title the file gives, if any.
    public var title: String?
    /// The tags (folder, profile) the file gives.
    public var tags: [String]

    /// Creates an entry.
    public init(location: String, text: String, link: ChannelLink, title: String? = nil, tags: [String] = []) {
        self.location = location
        self.text = text
        self.link = link
        self.title = title
        self.tags = tags
    }
}
