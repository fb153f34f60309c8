import Foundation

/// Where IPC sockets of tracked players go: `$XDG_RUNTIME_DIR/metube`, else `metube/` in the
/// state directory (`$XDG_STATE_HOME`, else `~/.local/state`). Created private to the user.
public enum PlayerSocketDirectory {
    /// The directory for `environment`.
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return URL(fileURLWithPath: runtime).appendingPathComponent("metube")
        }
        let state = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state").path
        return URL(fileURLWithPath: state).appendingPathComponent("metube")
    }

    /// A fresh socket path in the directory (created when missing) for one player.
    static func newSocketPath(in directory: URL) throws(PlayerError) -> String {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotStart(command: "mpv", reason: "cannot create \(directory.path): \(error.localizedDescription)")
        }
        return directory.appendingPathComponent("mpv-\(getpid())-\(UUID().uuidString.prefix(8).lowercased()).sock").path
    }
}
