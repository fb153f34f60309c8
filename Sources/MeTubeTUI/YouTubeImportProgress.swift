/// Where an import of the YouTube subscriptions started with `I` in the channels view stands.
public enum YouTubeImportProgress: Sendable, Equatable {
    /// Pages read so far and the channels on them.
    case reading(pages: Int, channels: Int)
    /// The import ended; what was read was followed, even when the reading stopped part way.
    case finished(YouTubeImportReport)
    /// No YouTube sign-in is saved.
    case notSignedIn
    /// Google no longer accepts the saved sign-in (revoked or expired); nothing was read.
    case signInRejected
    /// The `[youtube]` client settings are missing; the reason says which.
    case notConfigured(String)
    /// The import could not start or write (a damaged sign-in, the store); nothing was followed.
    case failed(String)
}
