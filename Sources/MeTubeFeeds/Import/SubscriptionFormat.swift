import MeTubeCore

/// A kind of file that lists YouTube subscriptions, as other apps export them.
public enum SubscriptionFormat: String, Codable, Sendable, CaseIterable {
    /// Google Takeout's `subscriptions.csv`: channel id, channel URL, channel title, one header row.
    case takeoutCSV
    /// OPML as YouTube's old subscription manager and newsboat write it, one outline per feed.
    case opml
    /// NewPipe's `subscriptions.json` export.
    case newPipeJSON
    /// FreeTube's `profiles.db`, a NeDB file with one JSON document per line.
    case freeTube
    /// newsboat's `urls` file: one feed URL per line, followed by tags.
    case newsboatURLs
    /// A plain list of channel ids or channel and feed URLs, with `#` comments.
    case plainList

    /// The name messages use for the format.
    public var displayName: String {
        switch self {
        case .takeoutCSV: "Google Takeout CSV"
        case .opml: "OPML"
        case .newPipeJSON: "NewPipe JSON"
        case .freeTube: "FreeTube profiles"
        case .newsboatURLs: "newsboat urls"
        case .plainList: "plain list"
        }
    }
}
