import Foundation

/// Where IPC sockets of tracked players go: `$XDG_RUNTIME_DIR/metube`, else `metube/` in the
/// state directory (`$XDG_STATE_HOME`, else `~/.local/state`). Private to the user: created with
/// mode 0700, and narrowed to it whenever a player starts when it already exists wider.
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

    /// A fresh socket path in the directory (created when missing, narrowed to 0700) for one
    /// player.
    static func newSocketPath(in directory: URL) throws(PlayerError) -> String {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotStart(command: "mpv", reason: "cannot create \(directory.path): \(error.localizedDescription)")
        }
        guard chmod(directory.path, 0o700) == 0 else {
            throw .cannotStart(command: "mpv", reason: "cannot make \(directory.path) private (mode 0700): \(String(cString: strerror(errno)))")
        }
        return directory.appendingPathComponent("mpv-\(getpid())-\(UUID().uuidString.prefix(8).lowercased()).sock").path
    }
}
