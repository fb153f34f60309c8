import MeTubeCore
import MeTubeYouTube

/// The one rule for the text and links every source brings into the hub — Atom feeds polled or
/// pushed by WebSub, the Data API's channel details, yt-dlp's catalog and backfill, the demo
/// catalog — applied before anything is stored, so that every client of the hub API gets clean
/// data, not only those that clean it for display:
/// - titles and channel names: tabs, line breaks and U+2028/U+2029 become a space; every other C0
///   or C1 control, DEL and bidi control (U+061C, U+200E/U+200F, U+202A–U+202E, U+2066–U+2069) is
///   removed;
/// - descriptions: the same, except that line breaks and tabs are kept, as LF and TAB (a client
///   shows a description line by line): CR LF, a lone CR and U+2028/U+2029 become LF;
/// - thumbnail addresses: only an absolute `http://` or `https://` address with a host, in
///   printable ASCII, is kept; any other (`javascript:`, `data:`, `file:`, relative, with spaces
///   or controls) is dropped, not stored.
enum IngestScreen {
    /// `text` as one line: a title or a channel name.
    static func line(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: DisplayText.isControl) else { return text }
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09...0x0D, 0x2028, 0x2029: kept.append(" ")
            default: if !DisplayText.isControl(scalar) { kept.append(scalar) }
            }
        }
        return String(kept)
    }

    /// `text` as a description: lines and tabs kept, every other control removed.
    static func description(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { DisplayText.isControl($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var kept = String.UnicodeScalarView()
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": if !afterCarriageReturn { kept.append("\n") }
            case "\t": kept.append("\t")
            case "\r", "\u{2028}", "\u{2029}": kept.append("\n")
            default: if !DisplayText.isControl(scalar) { kept.append(scalar) }
            }
            afterCarriageReturn = scalar == "\r"
        }
        return String(kept)
    }

    /// `url` when it is an absolute `http://` or `https://` address with a host, in printable
    /// ASCII; nil otherwise.
    static func thumbnailURL(_ url: String?) -> String? {
        guard let url else { return nil }
        let bytes = url.utf8
        guard bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        let lowered = url.lowercased()
        guard let rest = ["https://", "http://"].lazy.compactMap({ lowered.hasPrefix($0) ? lowered.dropFirst($0.count) : nil }).first,
              let host = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first, !host.isEmpty else { return nil }
        return url
    }

    /// `video` with its title, description and thumbnail address screened.
    static func video(_ video: Video) -> Video {
        var video = video
        video.title = line(video.title)
        if let text = video.description { video.description = description(text) }
        video.thumbnailURL = thumbnailURL(video.thumbnailURL)
        return video
    }

    /// `ingestion` with its channel name and every video screened.
    static func ingestion(_ ingestion: FeedIngestion) -> FeedIngestion {
        var screened = ingestion
        screened.channelTitle = ingestion.channelTitle.map(line)
        screened.videos = ingestion.videos.map(video)
        return screened
    }

    /// A channel's Data API details with the name and thumbnail address screened.
    static func channelDetails(_ details: YouTubeChannelDetails) -> YouTubeChannelDetails {
        YouTubeChannelDetails(title: details.title.map(line), thumbnailURL: thumbnailURL(details.thumbnailURL))
    }
}
