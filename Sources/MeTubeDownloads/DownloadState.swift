import MeTubeCore

/// Where one queued video's download stands.
public enum DownloadState: Sendable, Equatable, Codable {
    /// yt-dlp is running; the last report, once there is one.
    case downloading(DownloadProgress?)
    /// It waits for room: the quota has too little left, even without the watched copies.
    case waiting(reason: String)
    /// The last attempt failed; `attempts` made so far in this run.
    case failed(DownloadFailure, attempts: Int)
    /// The copy is on disk.
    case downloaded
}

