import Foundation
import MeTubeCore

/// The mark-sync service account of this machine: the endpoint in `status.json` and the user token
/// in `status-token` (mode 0600), both in metube's config directory.
public struct MarkSyncAccount: Sendable, Hashable {
    /// Where the service is.
    public var endpoint: MarkSyncEndpoint
    /// The user's token; never logged or printed.
    public var userToken: String

    /// Creates an account.
    public init(endpoint: MarkSyncEndpoint, userToken: String) {
        self.endpoint = endpoint
        self.userToken = userToken
    }

    /// metube's config directory: `$XDG_CONFIG_HOME/metube`, else `~/.config/metube`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let base = environment["XDG_CONFIG_HOME"], !base.isEmpty {
            return URL(fileURLWithPath: base).appendingPathComponent("metube")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".config/metube")
    }

    /// The account saved in `directory`, or `nil` when none is.
    public static func load(from directory: URL) throws -> MarkSyncAccount? {
        let endpointFile = directory.appendingPathComponent("status.json")
        let tokenFile = directory.appendingPathComponent("status-token")
        guard FileManager.default.fileExists(atPath: endpointFile.path) else { return nil }
        let endpoint = try JSONDecoder().decode(MarkSyncEndpoint.self, from: Data(contentsOf: endpointFile))
        let token = try String(contentsOf: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return MarkSyncAccount(endpoint: endpoint, userToken: token)
    }

    /// Saves the account in `directory`: the token file is created with mode 0600 before the
    /// token is written, and both files are replaced atomically.
    public func save(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.replace(directory.appendingPathComponent("status.json"), with: encoder.encode(endpoint), mode: 0o644)
        try AtomicFile.replace(directory.appendingPathComponent("status-token"), with: Data((userToken + "\n").utf8), mode: 0o600)
    }
}
