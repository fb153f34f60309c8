import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubePlayer
import MeTubeSync
import MeTubeThumbnails

/// How the TUI connects to the rest of metube: sync events in, sync requests out, timing.
public struct TUIOptions: Sendable {
    /// Where `--timing` figures go.
    public enum TimingOutput: Sendable, Equatable {
        /// Standard error, written after the terminal is restored.
        case standardError
        /// A file at this path, appended to when the TUI ends.
        case file(String)
    }

    /// Events from the sync engine; `nil` when no sync is configured.
    public var syncEvents: AsyncStream<TUISyncEvent>?
    /// The background downloads' reports, when the queue is downloaded while the TUI runs.
    public var downloadEvents: AsyncStream<DownloadEvent>?
    /// Called for `r` (sync now), and after the first frame when ``syncAtStart``.
    public var requestSync: (@Sendable () -> Void)?
    /// Called for `R` once confirmed: forget where the syncs stopped and fetch everything again.
    public var requestFullResync: (@Sendable () -> Void)?
    /// Whether to ask for a sync once the first frame is on screen.
    public var syncAtStart: Bool
    /// Called after every mark the TUI makes durable, so a sync can follow.
    public var markDidChange: (@Sendable () -> Void)?
    /// The sync services' states before the first event.
    public var services: [RemoteService: ServiceState]
    /// The video source's name on the status line: `hub` or `youtube`.
    public var videoSourceName: String
    /// Whether the statuses of all videos are known at start (a mark-sync pull has finished).
    public var statusesKnown: Bool
    /// Where to write timing figures, `nil` for none.
    public var timingOutput: TimingOutput?
    /// When the program started, for the start-to-first-frame figure.
    public var startedAt: ContinuousClock.Instant
    /// How often the loop looks for changes made by other processes.
    public var refreshInterval: Duration
    /// Starts a tracked player for a video, at a position when given, reporting to a handler;
    /// `nil` when there is no tracked player.
    public var startPlayer: PlayerStarter?
    /// Starts following the signed-in YouTube account's subscriptions in the background (`I`),
    /// reporting progress and the outcome to the handler; `nil` when the TUI cannot import.
    public var importYouTube: YouTubeImporter?
    /// Turns a handle, custom name, legacy user or video link into a channel id, over the network
    /// (`a` in the channels view); `nil` when the TUI cannot resolve links.
    public var resolveChannel: ChannelLinkResolver?
    /// The thumbnail cache's directory (`$XDG_CACHE_HOME/metube/thumbnails` by default).
    public var thumbnailDirectory = ThumbnailCache.defaultDirectory()

    /// Starts a tracked player: video id, start position, and where its updates go.
    public typealias PlayerStarter = @Sendable (_ videoID: String, _ startSeconds: Double?, _ onUpdate: @escaping @Sendable (PlaybackUpdate) -> Void) throws -> PlaybackRecorder

    /// Starts an import of the YouTube subscriptions that reports to the handler, from any thread.
    public typealias YouTubeImporter = @Sendable (_ onProgress: @escaping @Sendable (YouTubeImportProgress) -> Void) -> Void

    /// Resolves a link to its channel id, or throws an error whose description says why, in one line.
    public typealias ChannelLinkResolver = @Sendable (ChannelLink) async throws -> String

    /// Options for a TUI without sync and without timing.
    public init(
        syncEvents: AsyncStream<TUISyncEvent>? = nil, requestSync: (@Sendable () -> Void)? = nil,
        syncAtStart: Bool = false, markDidChange: (@Sendable () -> Void)? = nil,
        services: [RemoteService: ServiceState] = [.videoSource: .notConfigured, .markSyncService: .notConfigured], videoSourceName: String = "hub",
        statusesKnown: Bool = false, timingOutput: TimingOutput? = nil,
        startedAt: ContinuousClock.Instant = .now, refreshInterval: Duration = .milliseconds(250)
    ) {
        self.syncEvents = syncEvents
        self.requestSync = requestSync
        self.syncAtStart = syncAtStart
        self.markDidChange = markDidChange
        self.services = services
        self.videoSourceName = videoSourceName
        self.statusesKnown = statusesKnown
        self.timingOutput = timingOutput
        self.startedAt = startedAt
        self.refreshInterval = refreshInterval
    }
}
