import Foundation
import MeTubeCore
import MeTubeFeeds

/// The result of one sync run.
public struct SyncReport: Sendable, Equatable {
    /// Where the videos came from.
    public var source: SyncSource
    /// Which run of its engine this was (1 for the first); every request joined into one run
    /// gets the same number. 0 for a report of no run (the engine was shut down).
    public var run = 0
    /// Whether the run synced videos (a marks-only run does not).
    public var includesVideos = true
    /// Channels newly acknowledged by the hub.
    public var channelsRegistered = 0
    /// Videos not in the store before.
    public var newVideos = 0
    /// Videos not in the store before that a backfill brought (a newly followed channel's last
    /// uploads, or what fell off an overflowing feed); not among ``newVideos``.
    public var backfilledVideos = 0
    /// Videos received (new or updated).
    public var videosReceived = 0
    /// Pages (hub) or feeds (direct) fetched.
    public var requests = 0
    /// Channels whose feed failed (direct mode), with the reason.
    public var failedChannels: [String: SyncError] = [:]
    /// The feed source failing as a whole (direct mode): set on every run while it lasts, which
    /// then fetches one channel's feed as a probe instead of all of them.
    public var sourceOutage: SourceOutage?
    /// Whether this run found that outage (the run that tells people, once).
    public var outageBegan = false
    /// The outage that ended before this run, which then fetched every channel.
    public var outageEnded: SourceOutage?
    /// Channels not fetched because they back off after failing (direct mode); they are among
    /// ``failedChannels``, with their last error.
    public var backingOff = 0
    /// When the last of the channels backing off may be fetched again.
    public var backingOffUntil: Date?
    /// Whether the hub had lost this device's channels and they were registered again.
    public var hubWasReset = false
    /// What the run dropped, cleared or recovered from the peers' answers, for people (at most
    /// a few lines; the run went on).
    public var notes: [String] = []
    /// Whether the run stopped early because it was cancelled.
    public var cancelled = false
    /// The error that ended the video part of the run, if it failed.
    public var error: SyncError?
    /// How long the run took, in seconds.
    public var seconds = 0.0
    /// What the mark sync of this run did, when one ran and completed.
    public var markSync: MarkSync.Report?
    /// Why the mark sync of this run failed, if it did (never for a cancellation, which sets
    /// ``cancelled``).
    public var markSyncError: SyncError?

    /// Creates an empty report for `source`.
    public init(source: SyncSource) { self.source = source }

    /// Whether that error was retryable.
    public var errorIsRetryable: Bool { error?.isRetryable ?? false }

    /// Whether the run completed without error, cancellation or failing channels.
    public var isComplete: Bool { error == nil && !cancelled && failedChannels.isEmpty && sourceOutage == nil }

    /// Whether the video source answered: the run synced videos, was not cancelled, ended
    /// without error, and at least one feed arrived (or there was nothing to fetch). Only such
    /// a run counts as synced.
    public var sourceAnswered: Bool {
        includesVideos && !cancelled && error == nil && sourceOutage == nil && (requests + backingOff == 0 || failedChannels.count < requests + backingOff)
    }
}
