import MeTubeCore
import MeTubeStore

/// Work the screen model asks the event loop to do; the model itself never touches the store,
/// the terminal or other processes.
public enum Effect: Sendable, Equatable {
    /// Make this mark durable in the store.
    case mark(videoID: String, status: WatchStatus)
    /// Make all these marks durable in one store write (a bulk mark or an undo): the videos to
    /// give each status.
    case markBatch([WatchStatus: [String]])
    /// Open `url` with the configured command; when `markWhen` is set, mark the video watched
    /// at that point (on the player's success, or at once).
    case open(videoID: String, url: String, markOnSuccess: Bool)
    /// Make this change to the watch-later queue durable in the store.
    case queue(QueueEdit)
    /// Play the video in a tracked mpv, from `startSeconds` when given.
    case play(videoID: String, startSeconds: Double?)
    /// Put `text` on the clipboard (OSC 52).
    case copy(String)
    /// Make `tags` the tags of the followed channel `channelID`.
    case setTags(channelID: String, tags: [String])
    /// Follow the channel `channelID`, reporting ``ModelEvent/followed(channelID:added:)``.
    case follow(channelID: String)
    /// Turn the lookup's link into a channel id in the background, reporting
    /// ``ModelEvent/channelResolved(_:channelID:)`` or ``ModelEvent/channelNotResolved(_:reason:)``.
    case resolveChannel(ChannelLookup)
    /// Stop the lookup ``resolveChannel(_:)`` started.
    case cancelChannelResolution
    /// Start a sync now.
    case syncNow
    /// Forget where the syncs stopped and fetch and merge everything again.
    case fullResync
    /// Follow the signed-in YouTube account's subscriptions, in the background, reporting
    /// ``ModelEvent/youTubeImport(_:)``.
    case importYouTube
    /// Leave the TUI.
    case quit
}
