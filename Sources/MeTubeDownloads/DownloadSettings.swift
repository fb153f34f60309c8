import Foundation
import MeTubeCore

/// How offline copies are made, from the `[download]` settings.
public struct DownloadSettings: Sendable, Equatable {
    /// The yt-dlp program: a name looked up on `PATH`, or a path.
    public var command: String
    /// The directory the copies are kept in.
    public var directory: URL
    /// yt-dlp's format selection.
    public var format: String
    /// Downloads at once.
    public var concurrency: Int
    /// The bytes the copies may take; `nil` for no limit.
    public var quotaBytes: Int64?
    /// Days a copy is kept once its video is watched.
    public var keepWatchedDays: Int
    /// The page yt-dlp is given, with `{videoId}` to replace.
    public var urlTemplate: String
    /// Whether the TUI downloads the queue while it runs.
    public var inBackground = true

    /// Settings as given.
    public init(command: String, directory: URL, format: String, concurrency: Int = 1, quotaBytes: Int64? = nil,
                keepWatchedDays: Int = 0, urlTemplate: String = "https://www.youtube.com/watch?v={videoId}") {
        self.command = command
        self.directory = directory
        self.format = format
        self.concurrency = concurrency
        self.quotaBytes = quotaBytes
        self.keepWatchedDays = keepWatchedDays
        self.urlTemplate = urlTemplate
    }

    /// The settings in `settings`; the directory defaults to `$XDG_DATA_HOME/metube/videos`
    /// (else `~/.local/share/metube/videos`).
    public init(settings: Settings, environment: [String: String] = ProcessInfo.processInfo.environment) {
        command = settings.text(.downloadCommand) ?? "yt-dlp"
        directory = settings.text(.downloadDirectory).map { URL(fileURLWithPath: $0, isDirectory: true) } ?? Self.defaultDirectory(environment: environment)
        format = settings.text(.downloadFormat) ?? ""
        concurrency = max(1, settings.whole(.downloadConcurrency))
        let gib = settings.number(.downloadQuota)
        quotaBytes = gib > 0 ? Int64((gib * 1_073_741_824).rounded(.down)) : nil
        keepWatchedDays = settings.whole(.downloadKeepWatched)
        urlTemplate = settings.text(.downloadURLTemplate) ?? ""
        inBackground = settings.flag(.downloadInBackground)
    }

    /// `$XDG_DATA_HOME/metube/videos`, else `~/.local/share/metube/videos`.
    public static func defaultDirectory(environment: [String: String]) -> URL {
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent("metube/videos", isDirectory: true)
    }

    /// The page yt-dlp is given for `videoID`.
    public func url(for videoID: String) -> String {
        urlTemplate.replacingOccurrences(of: "{videoId}", with: videoID)
    }
}
