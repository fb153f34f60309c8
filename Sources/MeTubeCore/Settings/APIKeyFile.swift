import Foundation

/// A YouTube Data API key kept in a file (`[youtube] api-key-file`, `metube-server
/// --youtube-api-key-file`), read the same way by the client and the server: at most
/// ``maximumBytes`` of UTF-8, surrounding whitespace removed, and a well-formed key
/// (``SettingValue/isAPIKey(_:)``).
public enum APIKeyFile {
    /// The largest key file read.
    public static let maximumBytes = 4_096

    /// What a key file holds.
    public enum Contents: Equatable, Sendable {
        /// A well-formed key.
        case key(String)
        /// The file cannot be opened.
        case unreadable
        /// The file is larger than ``maximumBytes`` or not UTF-8 text.
        case notText
        /// The text is not a key.
        case notAKey
    }

    /// What the file at `path` holds.
    public static func read(_ path: String) -> Contents {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .unreadable }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maximumBytes + 1)) ?? nil
        guard let data, data.count <= maximumBytes, let text = String(data: data, encoding: .utf8) else { return .notText }
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return SettingValue.isAPIKey(key) ? .key(key) : .notAKey
    }
}
