import MeTubeCore

/// What the TUI needs from the store: the library as a value, a way to mark, and a way to pick
/// up changes made by other processes.
public protocol LibrarySource: Sendable {
    /// The current library.
    func library() -> Library
    /// Makes a mark durable and returns it.
    func mark(_ videoID: String, as status: WatchStatus) throws -> Mark
    /// Picks up changes made elsewhere; `true` when something changed.
    func refresh() throws -> Bool
}
