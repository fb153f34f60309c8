import Foundation

/// How a store is opened.
public struct StoreOptions: Sendable {
    /// How long a write waits for another process's lock before failing with
    /// ``StoreError/lockTimeout(path:seconds:)``.
    public var lockTimeout: Duration
    /// How many journal bytes make ``Store/needsCompaction`` true: by default 1 MiB, where the
    /// first screen's replay of the journal over `head.json` still fits its 50 ms (see
    /// docs/design/store.md, "Choosing the compaction threshold").
    public var compactionThreshold: Int
    /// How many earlier snapshot generations are kept as backups.
    public var backupsKept: Int

    /// Creates options; the defaults suit interactive use.
    public init(lockTimeout: Duration = .seconds(5), compactionThreshold: Int = 1 << 20, backupsKept: Int = 3) {
        self.lockTimeout = lockTimeout
        self.compactionThreshold = compactionThreshold
        self.backupsKept = backupsKept
    }
}

/// Where the store lives by default: `$METUBE_DATA_DIR`, else `$XDG_DATA_HOME/metube`, else
/// `~/.local/share/metube`.
public enum StoreLocation {
    /// The default store directory for `environment`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["METUBE_DATA_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("metube", isDirectory: true)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share/metube", isDirectory: true)
    }
}
