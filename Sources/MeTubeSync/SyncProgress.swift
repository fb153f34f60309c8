import Foundation

/// What a sync reports while it runs and when it ends, in order, through `SyncEngine.events`.
public enum SyncEvent: Sendable, Equatable {
    /// A run began.
    case started(SyncSource)
    /// A step finished: e.g. "registered 216 channels" or "page 3: 100 videos".
    case progress(SyncSource, String)
    /// A run ended.
    case finished(SyncReport)
    /// The video source became reachable or unreachable.
    case connectivity(Connectivity)
    /// The status part of a run began.
    case statusStarted
    /// The status service became reachable or unreachable.
    case statusConnectivity(Connectivity)
}

/// What one run syncs.
public enum SyncScope: Sendable, Equatable {
    /// Videos (when a source is configured), then marks.
    case all
    /// Marks only, with the status service.
    case status

    /// The scope covering both.
    func union(_ other: SyncScope) -> SyncScope {
        self == .all || other == .all ? .all : .status
    }
}

/// Where videos come from.
public enum SyncSource: String, Sendable, Equatable, Codable {
    /// A MeTube hub.
    case hub
    /// YouTube's channel feeds, fetched directly.
    case direct
}

/// Whether the video source is reachable, as judged from the last outcomes and health probes.
public enum Connectivity: Sendable, Equatable {
    /// Nothing known yet.
    case unknown
    /// The last request succeeded.
    case online
    /// Requests fail to reach the source, since the given time.
    case offline(since: Date)
}

/// The result of one sync run.
public struct SyncReport: Sendable, Equatable, Codable {
    /// Where the videos came from.
    public var source: SyncSource
    /// Whether the run synced videos (a marks-only run does not).
    public var includesVideos = true
    /// Channels newly acknowledged by the hub.
    public var channelsRegistered = 0
    /// Videos not in the store before.
    public var newVideos = 0
    /// Videos received (new or updated).
    public var videosReceived = 0
    /// Pages (hub) or feeds (direct) fetched.
    public var requests = 0
    /// Channels whose feed failed (direct mode), with the reason.
    public var failedChannels: [String: String] = [:]
    /// Whether the hub had lost this device's channels and they were registered again.
    public var hubWasReset = false
    /// What the run dropped, cleared or recovered from the peers' answers, for people (at most
    /// a few lines; the run went on).
    public var notes: [String] = []
    /// Whether the run stopped early because it was cancelled.
    public var cancelled = false
    /// The error that ended the run, if it failed.
    public var error: String?
    /// Whether that error was retryable.
    public var errorIsRetryable = false
    /// How long the run took, in seconds.
    public var seconds = 0.0
    /// What the status sync of this run did, when one ran and completed.
    public var status: StatusSync.Report?
    /// Why the status sync of this run failed, if it did.
    public var statusError: String?

    /// Creates an empty report for `source`.
    public init(source: SyncSource) { self.source = source }

    /// Whether the run completed without error, cancellation or failing channels.
    public var isComplete: Bool { error == nil && !cancelled && failedChannels.isEmpty }
}
