import MeTubeCore
import MeTubeSync

/// Following the YouTube subscriptions from the channels view (`I`).
extension ScreenModel {
    /// Asks the loop to import the subscriptions in the background, unless an import is under way.
    mutating func startYouTubeImport() -> [Effect] {
        guard !isImportingYouTube else {
            message = FooterMessage(text: "youtube: the import is still under way", isError: false)
            return []
        }
        isImportingYouTube = true
        message = FooterMessage(text: "youtube: reading your subscriptions…", isError: false)
        return [.importYouTube]
    }

    /// Shows how the import goes; once channels were added, asks for a sync so their videos come.
    mutating func applyYouTubeImport(_ progress: YouTubeImportProgress) -> [Effect] {
        switch progress {
        case .reading(let pages, let channels):
            message = FooterMessage(text: "youtube: reading your subscriptions… \(Formatting.count(pages, "page")), \(Formatting.count(channels, "channel"))", isError: false)
            return []
        case .finished(let report):
            isImportingYouTube = false
            message = Self.message(report)
            guard report.added > 0, services.values.contains(where: { $0 != .notConfigured }) else { return [] }
            return [.syncNow]
        case .notSignedIn:
            message = FooterMessage(text: "youtube: not signed in; run metube youtube login first", isError: true)
        case .signInRejected:
            message = FooterMessage(text: "youtube: the sign-in was revoked or has expired; run metube youtube login again", isError: true)
        case .notConfigured(let reason):
            message = FooterMessage(text: "youtube: \(DisplayText.line(reason, limit: 300))", isError: true)
        case .failed(let reason):
            message = FooterMessage(text: "youtube: \(DisplayText.line(reason, limit: 300)); nothing was imported", isError: true)
        }
        isImportingYouTube = false
        return []
    }

    /// "youtube: 12 added, 200 already followed, 3 no longer subscribed", and why it stopped.
    private static func message(_ report: YouTubeImportReport) -> FooterMessage {
        var parts = ["\(report.added) added", "\(report.alreadyFollowed) already followed"]
        if report.notSubscribed > 0 { parts.append("\(report.notSubscribed) no longer subscribed") }
        if report.rejected > 0 { parts.append("\(report.rejected) rejected") }
        var text = "youtube: " + parts.joined(separator: ", ")
        if let failure = report.failure { text += "; stopped: \(DisplayText.line(failure, limit: 300)) (what was read is kept)" }
        return FooterMessage(text: text, isError: report.failure != nil)
    }
}
