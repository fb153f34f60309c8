import Foundation
import MeTubeAPI
import MeTubeCore

/// A `videos/query` answer after the boundary checks of ``PeerInput``, decoded row by row so that
/// one bad row or field never takes the page down: rows without a usable seq, video id, channel
/// id or date are dropped and counted; a bad title, URL, duration, thumbnail address or count is
/// cleared and counted; titles and descriptions are capped.
struct ScreenedHubPage: Decodable, Sendable {
    /// The rows that can be stored.
    var videos: [HubVideo] = []
    /// How many rows the page carried, dropped ones included.
    var rowCount = 0
    /// The smallest and largest usable seq of any row, dropped ones included (a dropped row's seq
    /// is still a row the hub has, so the watermark may pass it).
    var seqRange: ClosedRange<Int64>?
    /// The page's `maxSeqReturned` when it was a readable integer.
    var claimedMaxSeq: Int64?
    /// Rows dropped, by reason.
    var dropped: [String: Int] = [:]
    /// Fields cleared or capped, by reason.
    var cleared: [String: Int] = [:]

    private enum PageKeys: String, CodingKey { case videos, maxSeqReturned }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: PageKeys.self)
        claimedMaxSeq = try? container.decode(Int64.self, forKey: .maxSeqReturned)
        var rows = try container.nestedUnkeyedContainer(forKey: .videos)
        while !rows.isAtEnd {
            let row = try rows.decode(LenientHubRow.self)
            rowCount += 1
            screen(row)
        }
    }

    /// A note for people, or nil when nothing was dropped or cleared.
    var note: String? {
        let parts = dropped.sorted { $0.key < $1.key }.map { "\($0.value) row(s) dropped (\($0.key))" }
            + cleared.sorted { $0.key < $1.key }.map { "\($0.value) field(s) cleared (\($0.key))" }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    private mutating func screen(_ row: LenientHubRow) {
        guard let rawSeq = row.seq, let seq = PeerInput.seq(rawSeq) else { return drop("seq missing or out of range") }
        seqRange = seqRange.map { min($0.lowerBound, seq)...max($0.upperBound, seq) } ?? seq...seq
        guard let videoID = row.videoID, PeerInput.isVideoID(videoID) else { return drop("invalid video id") }
        guard let channelID = row.channelID, PeerInput.isChannelID(channelID) else { return drop("invalid channel id") }
        guard let published = PeerInput.shortText(row.publishedAt, maxBytes: 64), ISO8601Timestamp.parse(published) != nil else {
            return drop("unreadable publication date")
        }
        var title = row.title
        if row.titleWasBad { clear("title of the wrong type") }
        if let long = title, long.utf8.count > PeerInput.maxTitleCharacters {
            let capped = PeerInput.title(long)
            if capped != long { clear("title longer than \(PeerInput.maxTitleCharacters) characters, cut") }
            title = capped
        }
        let url = PeerInput.shortText(row.url) ?? ""
        if row.url != nil, url.isEmpty { clear("URL too long") }
        var duration: Int?
        if let seconds = row.durationSeconds {
            duration = PeerInput.durationSeconds(seconds)
            if duration == nil { clear("duration out of range") }
        } else if row.durationWasBad {
            clear("duration not a whole number")
        }
        var description = row.description
        if let long = description, long.utf8.count > FeedLimits.maxDescriptionBytes {
            clear("description longer than \(FeedLimits.maxDescriptionBytes) bytes, cut")
            description = FeedLimits.description(long)
        }
        let thumbnailURL = PeerInput.shortText(row.thumbnailURL)
        if row.thumbnailURL != nil, thumbnailURL == nil { clear("thumbnail address too long") }
        videos.append(HubVideo(
            seq: seq, videoID: videoID, channelID: channelID, publishedAt: published, title: title, url: url, durationSeconds: duration,
            availability: PeerInput.shortText(row.availability, maxBytes: 32), scheduledStart: PeerInput.shortText(row.scheduledStart, maxBytes: 64),
            description: description, thumbnailURL: thumbnailURL, viewCount: count(row.viewCount, "view count"),
            starRatingCount: count(row.starRatingCount, "rating count")))
    }

    /// A count when it is in `FeedLimits.count`'s range; else nil, counted as cleared.
    private mutating func count(_ value: Int?, _ name: String) -> Int? {
        guard let value else { return nil }
        guard let count = FeedLimits.count(value) else {
            clear("\(name) out of range")
            return nil
        }
        return count
    }

    private mutating func drop(_ reason: String) { dropped[reason, default: 0] += 1 }
    private mutating func clear(_ reason: String) { cleared[reason, default: 0] += 1 }
}

/// One row of a hub page, each field decoded on its own: a field of the wrong type reads as
/// nil instead of failing the row, and a row that is not an object reads as all-nil.
private struct LenientHubRow: Decodable {
    var seq: Int64?
    var videoID: String?
    var channelID: String?
    var publishedAt: String?
    var title: String?
    var titleWasBad = false
    var url: String?
    var durationSeconds: Int?
    var durationWasBad = false
    var availability: String?
    var scheduledStart: String?
    var description: String?
    var thumbnailURL: String?
    var viewCount: Int?
    var starRatingCount: Int?

    private enum Keys: String, CodingKey {
        case seq, videoID = "videoId", channelID = "channelId", publishedAt, title, url, durationSeconds
        case availability, scheduledStart
        case description, thumbnailURL = "thumbnailUrl", viewCount, starRatingCount
    }

    init(from decoder: any Decoder) {
        guard let row = try? decoder.container(keyedBy: Keys.self) else { return }
        seq = try? row.decode(Int64.self, forKey: .seq)
        videoID = try? row.decode(String.self, forKey: .videoID)
        channelID = try? row.decode(String.self, forKey: .channelID)
        publishedAt = try? row.decode(String.self, forKey: .publishedAt)
        url = try? row.decode(String.self, forKey: .url)
        availability = try? row.decode(String.self, forKey: .availability)
        scheduledStart = try? row.decode(String.self, forKey: .scheduledStart)
        (title, titleWasBad) = Self.optional(String.self, row, .title)
        (durationSeconds, durationWasBad) = Self.optional(Int.self, row, .durationSeconds)
        description = try? row.decode(String.self, forKey: .description)
        thumbnailURL = try? row.decode(String.self, forKey: .thumbnailURL)
        viewCount = (try? row.decode(Int.self, forKey: .viewCount)) ?? Self.outOfRange(row, .viewCount)
        starRatingCount = (try? row.decode(Int.self, forKey: .starRatingCount)) ?? Self.outOfRange(row, .starRatingCount)
    }

    /// -1 (out of range) for a count too large for `Int` or not whole, so that it is cleared and
    /// counted rather than taken as unknown; nil when the field is absent, null or not a number.
    private static func outOfRange(_ row: KeyedDecodingContainer<Keys>, _ key: Keys) -> Int? {
        (try? row.decode(Double.self, forKey: key)) == nil ? nil : -1
    }

    /// An optional field: its value, and whether it was present, not null and unreadable.
    private static func optional<T: Decodable>(_ type: T.Type, _ row: KeyedDecodingContainer<Keys>, _ key: Keys) -> (T?, Bool) {
        guard row.contains(key), (try? row.decodeNil(forKey: key)) == false else { return (nil, false) }
        guard let value = try? row.decode(T.self, forKey: key) else { return (nil, true) }
        return (value, false)
    }
}
