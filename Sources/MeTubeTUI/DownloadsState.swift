import MeTubeCore

/// What the background downloads report to the screen.
public enum DownloadEvent: Sendable, Equatable {
    /// The videos with a copy on disk now (at the start, and after copies were removed).
    case copies(Set<String>)
    /// One queued video's download moved on.
    case state(videoID: String, DownloadState)
}

/// The offline copies and the queue's downloads, as the rows and the status line show them.
public struct DownloadsState: Sendable, Equatable {
    /// The videos with a copy on disk.
    public private(set) var copies: Set<String> = []
    /// The downloads under way, with their last report.
    public private(set) var active: [String: DownloadProgress?] = [:]
    /// The videos that failed or wait, with why.
    public private(set) var problems: [String: DownloadState] = [:]

    /// Takes a report.
    mutating func apply(_ event: DownloadEvent) {
        switch event {
        case .copies(let ids):
            copies = ids
        case .state(let id, let state):
            active[id] = nil
            problems[id] = nil
            switch state {
            case .downloading(let report): active[id] = .some(report)
            case .downloaded: copies.insert(id)
            case .waiting, .failed: problems[id] = state
            }
        }
    }

    /// The row's glyph: `⤓` (ASCII `d`) for a copy on disk; `nil` without one.
    func glyph(of videoID: String, unicode: Bool) -> String? {
        copies.contains(videoID) ? (unicode ? "⤓" : "d") : nil
    }

    /// The row's progress field while its video downloads: `⤓ 42%`.
    func progressText(of videoID: String, unicode: Bool) -> String? {
        guard let report = active[videoID] else { return nil }
        let percent = report?.fraction.map { "\(Int(($0 * 100).rounded(.down)))%" } ?? "…"
        return "\(unicode ? "⤓" : "d") \(percent)"
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
}
