import MeTubeCore

/// Work the screen model asks the event loop to do; the model itself never touches the store,
/// the terminal or other processes.
public enum Effect: Sendable, Equatable {
    /// Make this mark durable in the store.
    case mark(videoID: String, status: WatchStatus)
    /// Open `url` with the configured command; when `markWhen` is set, mark the video watched
    /// at that point (on the player's success, or at once).
    case open(videoID: String, url: String, markOnSuccess: Bool)
    /// Play the video in a tracked mpv, from `startSeconds` when given.
    case play(videoID: String, startSeconds: Double?)
    /// Put `text` on the clipboard (OSC 52).
    case copy(String)
    /// Make `tags` the tags of the followed channel `channelID`.
    case setTags(channelID: String, tags: [String])
    /// Start a sync now.
    case syncNow
    /// Forget where the syncs stopped and fetch and merge everything again.
    case fullResync
    /// Leave the TUI.
    case quit
}
