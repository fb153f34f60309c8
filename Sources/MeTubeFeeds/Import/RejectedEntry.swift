import Foundation
import MeTubeCore

/// One entry of a subscription file that did not become a channel, and why.
public struct RejectedEntry: Codable, Sendable, Hashable {
    /// Where the entry is, such as `line 12` or `subscriptions[3].url`.
    public var location: String
    /// The offending text, trimmed and shortened to at most 200 characters.
    public var text: String
    /// Why the entry was not imported.
    public var reason: String

    /// Creates an entry, trimming and shortening `text`.
    public init(location: String, text: some StringProtocol, reason: String) {
        self.location = location
        self.text = Self.shortened(text.trimmingCharacters(in: .whitespacesAndNewlines))
        self.reason = reason
    }

    /// The longest text an entry keeps.
    private static let maximumTextLength = 200

    /// `text`, cut to `maximumTextLength` characters with an ellipsis when longer.
    private static func shortened(_ text: String) -> String {
        guard text.count > maximumTextLength else { return text }
        return text.prefix(maximumTextLength - 1) + "…"
    }
}

extension RejectedEntry: CustomStringConvertible {
    /// The entry as one message line: location, reason, then the text.
    public var description: String {
        text.isEmpty ? "\(location): \(reason)" : "\(location): \(reason): \(text)"
    }
}
