import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeFeeds
import MeTubeJSON
import MeTubeStore
import MeTubeTransfer

/// A `videos/query` answer after the boundary checks of ``PeerInput``, read row by row so that
/// one bad row or field never takes the page down: rows without a usable seq, video id, channel
/// id or date are dropped and counted; a bad title, URL, duration, thumbnail address or count is
/// cleared and counted; titles and descriptions are capped.
///
/// The page is read in one pass over its bytes (``JSONScanner``), not through `JSONDecoder`: a
/// first sync reads 400 pages of half a megabyte, and decoding them was a quarter of its time.
struct ScreenedHubPage: Sendable {
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

    private init() {}

    /// Reads and screens a page from its JSON bytes. Throws `invalidResponse` when the bytes are
    /// not a JSON object with a `videos` array, or nest deeper than `JSONNesting.maxDepth`.
    init(json raw: UnsafeRawBufferPointer) throws(SyncError) {
        let bytes = raw.bindMemory(to: UInt8.self)
        guard !JSONNesting.exceedsLimit(bytes) else { throw .invalidResponse("the page is nested deeper than \(JSONNesting.maxDepth) levels") }
        var page = ScreenedHubPage()
        var sawVideos = false
        do throws(JSONScanner.Failure) {
            var scanner = JSONScanner(bytes)
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONScanner.Failure) in
                switch key {
                case "videos" where !sawVideos:
                    sawVideos = true
                    try scanner.readArray { (scanner: inout JSONScanner) throws(JSONScanner.Failure) in
                        let row = try LenientHubRow.read(&scanner, in: bytes)
                        page.rowCount += 1
                        page.screen(row)
                    }
                case "maxSeqReturned":
                    if case .whole(let value) = try LenientHubRow.number(&scanner, in: bytes) { page.claimedMaxSeq = value }
                default:
                    try scanner.skipValue()
                }
            }
            try scanner.expectEnd()
        } catch {
            throw .invalidResponse("malformed JSON (\(error))")
        }
        guard sawVideos else { throw .invalidResponse("missing field videos") }
        self = page
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
            starRatingCount: count(row.starRatingCount, "rating count"), backfilled: row.backfilled ? true : nil))
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

/// One row of a hub page, each field read on its own: a field of the wrong type reads as nil
/// instead of failing the row, and a row that is not an object reads as all-nil.
private struct LenientHubRow {
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
    /// `backfilled` was `true` (anything else reads as false).
    var backfilled = false

    /// Reads the row that comes next in `scanner` (over `bytes`).
    static func read(_ scanner: inout JSONScanner, in bytes: UnsafeBufferPointer<UInt8>) throws(JSONScanner.Failure) -> LenientHubRow {
        var row = LenientHubRow()
        guard nextByte(scanner, bytes) == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return row
        }
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONScanner.Failure) in
            switch key {
            case "seq": row.seq = try number(&scanner, in: bytes).whole
            case "videoId": row.videoID = try text(&scanner).value
            case "channelId": row.channelID = try text(&scanner).value
            case "publishedAt": row.publishedAt = try text(&scanner).value
            case "title": (row.title, row.titleWasBad) = try text(&scanner)
            case "url": row.url = try text(&scanner).value
            case "durationSeconds":
                let duration = try number(&scanner, in: bytes)
                (row.durationSeconds, row.durationWasBad) = (duration.whole.map(Int.init), duration.isBad)
            case "availability": row.availability = try text(&scanner).value
            case "scheduledStart": row.scheduledStart = try text(&scanner).value
            case "description": row.description = try text(&scanner).value
            case "thumbnailUrl": row.thumbnailURL = try text(&scanner).value
            case "viewCount": row.viewCount = try number(&scanner, in: bytes).count
            case "starRatingCount": row.starRatingCount = try number(&scanner, in: bytes).count
            case "backfilled":
                let value = try scanner.lenient({ (scanner: inout JSONScanner) throws(JSONScanner.Failure) in try scanner.readBool() })
                if case .success(true) = value { row.backfilled = true }
            default: try scanner.skipValue()
            }
        }
        return row
    }

    /// A string field: its value, and whether it was present, not null and not a string.
    private static func text(_ scanner: inout JSONScanner) throws(JSONScanner.Failure) -> (value: String?, isBad: Bool) {
        if try scanner.consumeNull() { return (nil, false) }
        switch try scanner.lenient({ (scanner: inout JSONScanner) throws(JSONScanner.Failure) in try scanner.readString() }) {
        case .success(let value): return (value, false)
        case .failure: return (nil, true)
        }
    }

    /// What a number field held.
    enum Number {
        /// Null.
        case null
        /// A whole number in `Int64`'s range.
        case whole(Int64)
        /// A number that is not whole or is out of range.
        case outOfRange
        /// Not a number.
        case notANumber

        var whole: Int64? {
            if case .whole(let value) = self { return value }
            return nil
        }

        /// Present, not null and not a usable whole number.
        var isBad: Bool {
            switch self {
            case .null, .whole: false
            case .outOfRange, .notANumber: true
            }
        }

        /// A count: its value; -1 (out of range) for a number too large or not whole, so that it
        /// is cleared and counted rather than taken as unknown; nil when null or not a number.
        var count: Int? {
            switch self {
            case .whole(let value): Int(value)
            case .outOfRange: -1
            case .null, .notANumber: nil
            }
        }
    }

    /// Reads a number field.
    static func number(_ scanner: inout JSONScanner, in bytes: UnsafeBufferPointer<UInt8>) throws(JSONScanner.Failure) -> Number {
        if try scanner.consumeNull() { return .null }
        let first = nextByte(scanner, bytes)
        let isNumber = first == UInt8(ascii: "-") || (first.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false)
        switch try scanner.lenient({ (scanner: inout JSONScanner) throws(JSONScanner.Failure) in try scanner.readInt() }) {
        case .success(let value): return .whole(value)
        case .failure: return isNumber ? .outOfRange : .notANumber
        }
    }

    /// The first byte of the next value, past whitespace; nil at the end.
    private static func nextByte(_ scanner: borrowing JSONScanner, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt8? {
        var index = scanner.offset
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        return index < bytes.count ? bytes[index] : nil
    }
}
