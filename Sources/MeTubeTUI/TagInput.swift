import MeTubeCore

/// The tags of one channel being edited in the channels view (`T`): comma-separated text.
public struct TagInput: Sendable, Equatable {
    /// The channel whose tags are edited.
    public let channelID: String
    /// Its name, for the prompt.
    public let channelName: String
    /// The text typed so far, starting with the channel's tags.
    public internal(set) var text: String

    /// The tags the text names: split at commas, trimmed, empty ones left out.
    var tags: [String] {
        text.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
    }
}
