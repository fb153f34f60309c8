import Foundation
import MeTubeCore

/// What the `[download] quota` and `keep-watched` settings remove and allow.
public enum DownloadQuota {
    /// The copies to remove, oldest watched first, so that `needed` more bytes fit in `limit`
    /// with `used` taken; `nil` when they would not fit even with every watched copy removed.
    /// `watched` are the copies of watched videos with their sizes, oldest watched first.
    public static func removals(limit: Int64, used: Int64, needed: Int64, watched: [(videoID: String, bytes: Int64)]) -> [String]? {
        var free = limit - used
        var removals: [String] = []
        for copy in watched {
            if free >= needed { break }
            removals.append(copy.videoID)
            free += copy.bytes
        }
        return free >= needed ? removals : nil
    }

    /// The copies `keep-watched` removes at `now`: those of videos watched `keepDays` days ago
    /// or longer (`watchedAt` by video id).
    public static func expired(copies: some Sequence<String>, watchedAt: [String: Date], keepDays: Int, now: Date) -> [String] {
        copies.filter { id in
            guard let at = watchedAt[id] else { return false }
            return now.timeIntervalSince(at) >= Double(keepDays) * 86_400
        }.sorted()
    }

    /// `bytes` for people: `1.4 GB`, `512 KB`.
    public static func text(_ bytes: Int64) -> String {
        ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
    }
}
