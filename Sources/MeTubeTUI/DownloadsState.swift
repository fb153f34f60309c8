import MeTubeCore
import MeTubeDownloads

/// What the background downloads report to the screen.
public enum DownloadEvent: Sendable, Equatable {
    /// The videos with a copy on disk now, with the copies' sizes (at the start, and after copies
    /// were removed).
    case copies([String: Int64])
    /// One queued video's download moved on.
    case state(videoID: String, DownloadState)
}

/// The offline copies and the queue's downloads, as the rows, the status line, the downloads
/// view and the details pane show them.
public struct DownloadsState: Sendable, Equatable {
    /// The videos with a copy on disk, with the copies' sizes.
    public private(set) var copies: [String: Int64] = [:]
    /// The downloads under way, with their last report.
    public private(set) var active: [String: DownloadProgress?] = [:]
    /// The videos that failed or wait, with why.
    public private(set) var problems: [String: DownloadState] = [:]

    /// The lines of yt-dlp's output kept for a failed download, at most.
    static let errorLineCount = 4

    /// Takes a report.
    mutating func apply(_ event: DownloadEvent) {
        switch event {
        case .copies(let sizes):
            copies = sizes
        case .state(let id, let state):
            let last = active[id] ?? nil
            active[id] = nil
            problems[id] = nil
            switch state {
            case .downloading(let report): active[id] = .some(report)
            case .downloaded: copies[id] = last.map { $0.totalBytes ?? $0.downloadedBytes } ?? copies[id] ?? 0
            case .waiting, .failed: problems[id] = state
            }
        }
    }

    /// The row's glyph: `⤓` (ASCII `d`) for a copy on disk; `nil` without one.
    func glyph(of videoID: String, unicode: Bool) -> String? {
        copies[videoID] != nil ? (unicode ? "⤓" : "d") : nil
    }

    /// The row's progress field while its video downloads: `⤓ 42%`.
    func progressText(of videoID: String, unicode: Bool) -> String? {
        guard let report = active[videoID] else { return nil }
        return "\(unicode ? "⤓" : "d") \(Self.percent(report))"
    }

    /// Where `videoID`'s download stands, for the downloads view: `downloaded 12.3 MB`,
    /// `downloading 42% of 12.3 MB`, `waits: …`, `failed: …`, or `not downloaded yet`.
    public func stateText(of videoID: String) -> String {
        if let size = copies[videoID] { return "downloaded \(DownloadQuota.text(size))" }
        if let report = active[videoID] {
            let total = report?.totalBytes.map { " of \(DownloadQuota.text($0))" } ?? ""
            return "downloading \(Self.percent(report))\(total)"
        }
        switch problems[videoID] {
        case .waiting(let reason)?: return "waits: \(reason)"
        case .failed(let failure, _)?: return "failed: \(failure.summary)"
        default: return "not downloaded yet"
        }
    }

    /// The last lines yt-dlp printed when `videoID`'s download failed (not yet safe for display);
    /// empty unless it failed.
    func errorLines(of videoID: String) -> [String] {
        guard case .failed(let failure, _)? = problems[videoID] else { return [] }
        return Array(failure.lines.suffix(Self.errorLineCount))
    }

    /// The status line's part: the downloads under way and the overall share of the first, or
    /// how many failed or wait; `nil` when there is nothing to say.
    func statusText(unicode: Bool) -> String? {
        let glyph = unicode ? "⤓" : "d"
        if let first = active.keys.sorted().first {
            let percent = active[first]??.fraction.map { " \(Int(($0 * 100).rounded(.down)))%" } ?? ""
            return "\(glyph) \(active.count) downloading\(percent)"
        }
        guard !problems.isEmpty else { return nil }
        let failed = problems.values.filter { if case .failed = $0 { true } else { false } }.count
        let waiting = problems.count - failed
        return "\(glyph) " + [failed > 0 ? "\(failed) failed" : nil, waiting > 0 ? "\(waiting) waiting" : nil].compactMap { $0 }.joined(separator: ", ")
    }

    private static func percent(_ report: DownloadProgress?) -> String {
        report?.fraction.map { "\(Int(($0 * 100).rounded(.down)))%" } ?? "…"
    }
}
