import Foundation
import MeTubeCore

/// A YouTube link that names a channel only through the network: a handle, a custom name, a legacy
/// user name, or a video whose channel is meant.
///
/// Names are kept as typed (validated, percent-decoded); ``key`` folds case, as YouTube does, so a
/// household resolves `@Veritasium` and `@veritasium` once.
public enum ChannelLink: Hashable, Sendable {
    /// An `@handle`, without the `@`: 3 to 30 letters, digits, `_`, `-` or `.`.
    case handle(String)
    /// A `/c/name` custom URL's name.
    case customName(String)
    /// A legacy `/user/name` (or feed `?user=`) name.
    case user(String)
    /// A video id (11 characters of `[A-Za-z0-9_-]`): the link means that video's channel.
    case video(String)

    /// The canonical `https://www.youtube.com/…` URL of the link; ``ChannelReference/parse(_:)`` reads it back as `self`.
    public var url: String {
        switch self {
        case let .handle(name): "https://www.youtube.com/@\(Self.escaped(name))"
        case let .customName(name): "https://www.youtube.com/c/\(Self.escaped(name))"
        case let .user(name): "https://www.youtube.com/user/\(Self.escaped(name))"
        case let .video(id): "https://www.youtube.com/watch?v=\(id)"
        }
    }

    /// The link with its name folded to lower case (video ids keep their case): equal keys name the same channel.
    public var key: String {
        switch self {
        case let .handle(name): "@" + name.lowercased()
        case let .customName(name): "c/" + name.lowercased()
        case let .user(name): "user/" + name.lowercased()
        case let .video(id): "video/" + id
        }
    }

    /// `name` percent-encoded where it is not an unreserved ASCII character.
    private static func escaped(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? name
    }

    /// The characters a path segment keeps unencoded.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}

extension ChannelLink: CustomStringConvertible {
    /// The link as a user would write it: `@name`, `/c/name`, `/user/name` or `video ID`.
    public var description: String {
        switch self {
        case let .handle(name): "@\(name)"
        case let .customName(name): "/c/\(name)"
        case let .user(name): "/user/\(name)"
        case let .video(id): "video \(id)"
        }
    }
}
