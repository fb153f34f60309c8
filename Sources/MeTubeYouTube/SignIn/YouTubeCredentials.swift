import Foundation
import MeTubeCore

/// What `metube youtube login` keeps: the refresh token, and the last access token with the
/// time it stops working. Saved as `youtube-token` (mode 0600) beside the mark-sync account; never
/// logged or printed.
public struct YouTubeCredentials: Codable, Sendable, Equatable {
    /// The file's name in metube's config directory.
    public static let fileName = "youtube-token"

    /// The long-lived token that gets new access tokens.
    public var refreshToken: String
    /// The last access token, if one is known.
    public var accessToken: String?
    /// When `accessToken` stops working.
    public var accessTokenExpires: Date?

    /// Creates credentials.
    public init(refreshToken: String, accessToken: String? = nil, accessTokenExpires: Date? = nil) {
        self.refreshToken = refreshToken
        self.accessToken = accessToken
        self.accessTokenExpires = accessTokenExpires
    }

    /// The access token when it still works for a minute at `now`.
    public func usableAccessToken(at now: Date = Date()) -> String? {
        guard let accessToken, let expires = accessTokenExpires, expires.timeIntervalSince(now) > 60 else { return nil }
        return accessToken
    }

    /// The credentials saved in `directory`, or `nil` when none are.
    public static func load(from directory: URL) throws -> YouTubeCredentials? {
        let file = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(YouTubeCredentials.self, from: Data(contentsOf: file))
    }

    /// Saves the credentials in `directory`, created 0700 if missing, as a mode-0600 file
    /// replaced atomically.
    public func save(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        try AtomicFile.replace(directory.appendingPathComponent(Self.fileName), with: encoder.encode(self), mode: 0o600)
    }

    /// Removes the saved credentials from `directory`; `false` when there were none.
    public static func remove(from directory: URL) throws -> Bool {
        let file = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { return false }
        try FileManager.default.removeItem(at: file)
        return true
    }
}
