import MeTubeCore

/// Why a download failed, with the last lines yt-dlp printed.
public struct DownloadFailure: Sendable, Equatable, Codable {
    /// The classes of failure a user acts on differently.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The `[download] command` is not there.
        case missing
        /// yt-dlp does not know the options metube gives it.
        case tooOld
        /// The video cannot be had (removed, private, not found).
        case unavailable
        /// No format matches `[download] format`.
        case formatUnavailable
        /// Nothing was written for the time limit; the program was stopped.
        case stalled
        /// yt-dlp said it succeeded but no copy is in the directory.
        case noFile
        /// The disk is full.
        case diskFull
        /// Anything else.
        case failed
    }

    /// The class.
    public var kind: Kind
    /// yt-dlp's exit status, when it exited.
    public var status: Int32?
    /// The last lines it printed (not yet made safe for display).
    public var lines: [String]

    /// A failure.
    public init(kind: Kind, status: Int32? = nil, lines: [String] = []) {
        self.kind = kind
        self.status = status
        self.lines = lines
    }

    /// Whether trying again soon could help; the others wait for the user (or a new yt-dlp).
    public var isRetryable: Bool {
        switch self.kind {
        case .stalled, .failed, .diskFull: true
        case .missing, .tooOld, .unavailable, .formatUnavailable, .noFile: false
        }
    }

    /// Whether every other download would fail the same way.
    public var stopsEveryDownload: Bool { kind == .missing || kind == .tooOld }

    /// One line saying what happened and what to do.
    public var summary: String {
        switch kind {
        case .missing: "yt-dlp is not installed (set [download] command, or install yt-dlp)"
        case .tooOld: "yt-dlp is too old for metube's options; update it (pip install -U yt-dlp)"
        case .unavailable: "the video is unavailable"
        case .formatUnavailable: "no format matches [download] format"
        case .stalled: "no progress for too long; stopped"
        case .noFile: "yt-dlp ended without leaving a copy in the download directory"
        case .diskFull: "the disk is full"
        case .failed: "yt-dlp failed" + (status.map { " with status \($0)" } ?? "")
        }
    }

    /// The class of a failed run from its exit `status` and last `lines`.
    static func classify(status: Int32, lines: [String]) -> Kind {
        let text = lines.joined(separator: "\n")
        if status == 127 { return .missing }
        if text.contains("no such option") { return .tooOld }
        if text.contains("No space left on device") || text.contains("Errno 28") { return .diskFull }
        if text.contains("Requested format is not available") { return .formatUnavailable }
        for marker in ["HTTP Error 404", "HTTP Error 410", "Video unavailable", "Private video", "This video is unavailable", "has been removed"] where text.contains(marker) {
            return .unavailable
        }
        return .failed
    }
}
