import MeTubeCore

/// How one run of yt-dlp for one video ended.
public enum DownloadOutcome: Sendable, Equatable {
    /// The copy is in the directory.
    case downloaded(DownloadDirectory.Copy)
    /// It failed; the partial file (if any) is kept for the next attempt to resume.
    case failed(DownloadFailure)
    /// The video needs more than the room the quota left (at least `neededBytes`); its partial
    /// file was removed.
    case doesNotFit(neededBytes: Int64)
    /// It was stopped from outside (quitting); the partial file is kept.
    case cancelled
}
