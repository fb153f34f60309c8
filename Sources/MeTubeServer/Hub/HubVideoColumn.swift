/// The columns of a served `hub_videos` row, in the order both backends select them
/// (``selectList``): a row is read by column, at the place the select list gave it, so the two
/// cannot drift apart and a page of rows costs no lookup by name.
enum HubVideoColumn: Int, CaseIterable {
    case seq, videoID, channelID, publishedAt, title, url, durationSeconds, availability, scheduledStart, description, thumbnailURL,
         viewCount, starRatingCount, backfilled

    /// The column's name in `hub_videos`.
    var name: String {
        switch self {
        case .seq: "seq"
        case .videoID: "video_id"
        case .channelID: "channel_id"
        case .publishedAt: "published_at"
        case .title: "title"
        case .url: "url"
        case .durationSeconds: "duration_seconds"
        case .availability: "availability"
        case .scheduledStart: "scheduled_start"
        case .description: "description"
        case .thumbnailURL: "thumbnail_url"
        case .viewCount: "view_count"
        case .starRatingCount: "star_rating_count"
        case .backfilled: "backfilled"
        }
    }

    /// Every column, in order, for a `SELECT`.
    static let selectList = allCases.map(\.name).joined(separator: ", ")
}
