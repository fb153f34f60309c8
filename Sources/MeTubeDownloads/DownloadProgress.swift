import MeTubeCore

/// One progress report of yt-dlp, read from the line its `--progress-template` prints.
public struct DownloadProgress: Sendable, Equatable, Codable {
    /// Bytes of the current file written so far.
    public var downloadedBytes: Int64
    /// The file's size, exact or estimated; `nil` when yt-dlp does not know it.
    public var totalBytes: Int64?

    /// A report.
    public init(downloadedBytes: Int64, totalBytes: Int64?) {
        self.downloadedBytes = downloadedBytes
        self.totalBytes = totalBytes
    }

    /// The share done, 0...1, when the size is known.
    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(downloadedBytes) / Double(totalBytes))
    }

    /// What metube asks yt-dlp to print for each progress step: the marker, the status, the bytes
    /// written, the exact size and the estimated size (`NA` when unknown).
    static let template = "download:\(marker) %(progress.status)s %(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s"
    static let marker = "metube-progress"

    /// The largest byte count believed: 1 PB.
    static let maximumBytes: Double = 1e15

    /// What one line of yt-dlp's output is.
    enum Line: Equatable {
        case progress(DownloadProgress)
        /// Starts with the marker but is not a well-formed report.
        case garbage
        /// Anything else yt-dlp says (kept for the error lines).
        case message
    }

    /// Reads one output line.
    static func parse(_ line: Substring) -> Line {
        guard line.hasPrefix(marker) else { return .message }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 5, ["downloading", "finished"].contains(fields[1]), let downloaded = bytes(fields[2]) else { return .garbage }
        let total = bytes(fields[3]) ?? bytes(fields[4])
        if fields[3] != "NA", bytes(fields[3]) == nil { return .garbage }
        if fields[4] != "NA", bytes(fields[4]) == nil { return .garbage }
        return .progress(DownloadProgress(downloadedBytes: downloaded, totalBytes: total))
    }

    private static func bytes(_ field: Substring) -> Int64? {
        guard field.utf8.count <= 24, let value = Double(field), value.isFinite, value >= 0, value <= maximumBytes else { return nil }
        return Int64(value)
    }
}
