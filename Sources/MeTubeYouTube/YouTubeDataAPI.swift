import AsyncHTTPClient
import Foundation
import MeTubeCore
import NIOCore

/// A channel's details from `channels.list`, sanitized.
public struct YouTubeChannelDetails: Sendable, Equatable {
    /// The title as one line of at most 200 characters, nil when empty.
    public var title: String?
    /// An `https` thumbnail URL of at most 2,048 bytes, nil when there is none usable.
    public var thumbnailURL: String?

    /// Details of a channel.
    public init(title: String?, thumbnailURL: String?) {
        self.title = title
        self.thumbnailURL = thumbnailURL
    }
}

/// The calls of the YouTube Data API v3 metube makes, 1 quota unit each: `videos.list`,
/// `channels.list` and `playlistItems.list`.
///
/// Every failure is thrown as a ``YouTubeError``: `.quotaExceeded` for the API's `quotaExceeded`
/// or `dailyLimitExceeded` (403), `.upstream` for transport failures and other HTTP statuses,
/// `.garbage` for answers that are not in the documented shape. Error texts never carry the key.
public struct YouTubeDataAPI: Sendable {
    /// The Data API's base URL.
    public static let defaultBaseURL = "https://www.googleapis.com/youtube/v3"
    /// The most ids one call may name, and the largest page.
    public static let maxIDsPerCall = 50
    /// The largest answer read.
    static let maxAnswerBytes = 4 << 20
    /// The longest page token followed.
    static let maxPageTokenBytes = 256

    /// The API key (never logged).
    public let key: String
    /// The API's base URL, without a trailing slash (a loopback stub in tests).
    public let baseURL: String
    /// How long one call may take.
    public var timeout: TimeAmount = .seconds(30)
    var httpClient: HTTPClient = .shared

    /// A client calling `baseURL` with `key`.
    public init(key: String, baseURL: String = Self.defaultBaseURL) {
        self.key = key
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    }

    /// What `videos.list` says of one video, as written (the caller reads states and lengths).
    public struct VideoDetails: Sendable, Equatable {
        /// `contentDetails.duration`.
        public var duration: String?
        /// `snippet.liveBroadcastContent`.
        public var liveBroadcastContent: String?
        /// `liveStreamingDetails.scheduledStartTime`.
        public var scheduledStartTime: String?
        /// `liveStreamingDetails.actualStartTime`.
        public var actualStartTime: String?
        /// `liveStreamingDetails.actualEndTime`.
        public var actualEndTime: String?
        /// `status.privacyStatus`.
        public var privacyStatus: String?
        /// `status.uploadStatus`.
        public var uploadStatus: String?
    }

    /// The parts asked of `videos.list`: a call costs one unit whatever parts it names.
    public static let videoParts = "contentDetails,snippet,liveStreamingDetails,status"

    /// `videos.list` with ``videoParts`` for `ids` (at most 50): what each returned video says, by
    /// video id. Videos the API does not return are missing.
    public func videoDetails(_ ids: [String]) async throws(YouTubeError) -> [String: VideoDetails] {
        let answer = try await list(VideoItem.self, resource: "videos", query: ["part": Self.videoParts, "id": ids.joined(separator: ",")], ids: ids.count)
        var details: [String: VideoDetails] = [:]
        for item in answer.items ?? [] where ids.contains(item.id) {
            let live = item.liveStreamingDetails
            details[item.id] = VideoDetails(
                duration: item.contentDetails?.duration, liveBroadcastContent: item.snippet?.liveBroadcastContent,
                scheduledStartTime: live?.scheduledStartTime, actualStartTime: live?.actualStartTime, actualEndTime: live?.actualEndTime,
                privacyStatus: item.status?.privacyStatus, uploadStatus: item.status?.uploadStatus)
        }
        return details
    }

    /// The lengths of `ids` in whole seconds, from `videos.list?part=contentDetails`, each id
    /// asked once, 50 a call (one unit each; none for no ids). A video missing from the answers,
    /// or whose `contentDetails.duration` is not an ``ISO8601Duration`` of 1 s … 7 days (live,
    /// upcoming, garbage), is missing; ids not asked are ignored. The first failing call throws.
    public func lengths(of ids: [String]) async throws(YouTubeError) -> [String: Int] {
        var seen: Set<String> = []
        let asked = ids.filter { seen.insert($0).inserted }
        var lengths: [String: Int] = [:]
        for start in stride(from: 0, to: asked.count, by: Self.maxIDsPerCall) {
            let batch = Array(asked[start..<min(start + Self.maxIDsPerCall, asked.count)])
            let answer = try await list(VideoItem.self, resource: "videos", query: ["part": "contentDetails", "id": batch.joined(separator: ",")], ids: batch.count)
            for item in answer.items ?? [] where batch.contains(item.id) {
                lengths[item.id] = item.contentDetails?.duration.flatMap(ISO8601Duration.seconds)
            }
        }
        return lengths
    }

    /// `channels.list?part=snippet` for `ids` (at most 50): each returned channel's title and
    /// thumbnail (medium, else high, else default), by channel id.
    public func channelDetails(_ ids: [String]) async throws(YouTubeError) -> [String: YouTubeChannelDetails] {
        let answer = try await list(ChannelItem.self, resource: "channels", query: ["part": "snippet", "id": ids.joined(separator: ",")], ids: ids.count)
        var details: [String: YouTubeChannelDetails] = [:]
        for item in answer.items ?? [] where ids.contains(item.id) {
            let title = item.snippet?.title.map { DisplayText.line($0.trimmingCharacters(in: .whitespacesAndNewlines), limit: 200) }
            let thumbnails = item.snippet?.thumbnails ?? [:]
            let url = ["medium", "high", "default"].lazy.compactMap { thumbnails[$0]?.url }.first(where: Self.isUsableImageURL)
            details[item.id] = YouTubeChannelDetails(title: title?.isEmpty == false ? title : nil, thumbnailURL: url)
        }
        return details
    }

    /// The channel's last `count` uploads (1…``YTDLPCatalog/maxUploads``), newest first, from
    /// `playlistItems.list` on its uploads playlist (`UU…`), 50 a page through `pageToken`: one
    /// unit a page, at most `count / 50 + 1` pages. Items with an invalid or repeated video id
    /// are counted in ``ChannelUploads/rejected``; lengths are not in this answer (nil).
    public func uploads(of channelID: String, count: Int) async throws(YouTubeError) -> ChannelUploads {
        precondition(ChannelID.isValid(channelID), "not a channel id")
        let count = min(max(count, 1), YTDLPCatalog.maxUploads)
        let playlist = "UU" + channelID.dropFirst(2)
        var uploads = ChannelUploads(channelID: channelID, videos: [])
        var seen: Set<String> = []
        var token: String?
        for _ in 0...(count / Self.maxIDsPerCall) {
            var query = ["part": "snippet,contentDetails", "playlistId": playlist, "maxResults": String(Self.maxIDsPerCall)]
            query["pageToken"] = token
            let page = try await list(PlaylistItem.self, resource: "playlistItems", query: query, ids: 0)
            for item in page.items ?? [] {
                let id = item.contentDetails?.videoId ?? item.snippet?.resourceId?.videoId
                guard uploads.videos.count < count, let id, VideoID.isValid(id), seen.insert(id).inserted else {
                    uploads.rejected += 1
                    continue
                }
                let published = (item.contentDetails?.videoPublishedAt ?? item.snippet?.publishedAt).flatMap { try? Date($0, strategy: .iso8601) }
                uploads.videos.append(CatalogVideo(id: id, title: item.snippet?.title, durationSeconds: nil, published: published))
            }
            token = page.nextPageToken
            guard uploads.videos.count < count, let next = token else { break }
            guard next.utf8.count <= Self.maxPageTokenBytes, next.utf8.allSatisfy(ChannelID.isIDByte) else {
                throw .garbage("playlistItems.list answered an unusable nextPageToken")
            }
        }
        return uploads
    }

    /// Whether `url` is an `https` URL with a host, of visible ASCII, at most 2,048 bytes.
    public static func isUsableImageURL(_ url: String) -> Bool {
        guard url.utf8.count <= 2_048, url.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7F }),
              let components = URLComponents(string: url), components.scheme == "https", components.host?.isEmpty == false
        else { return false }
        return true
    }

    func list<Item: Decodable & Sendable>(_ type: Item.Type, resource: String, query: [String: String], ids: Int) async throws(YouTubeError) -> ListAnswer<Item> {
        precondition(ids <= Self.maxIDsPerCall, "the Data API takes at most 50 ids a call")
        var components = URLComponents()
        components.queryItems = (query.merging(["key": key, "maxResults": String(Self.maxIDsPerCall)]) { first, _ in first })
            .sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        var request = HTTPClientRequest(url: "\(baseURL)/\(resource)?\(components.percentEncodedQuery ?? "")")
        request.headers.add(name: "User-Agent", value: "metube")
        request.headers.add(name: "Accept", value: "application/json")
        let status: Int
        let body: ByteBuffer
        do {
            let response = try await httpClient.execute(request, timeout: timeout)
            status = Int(response.status.code)
            body = try await response.body.collect(upTo: Self.maxAnswerBytes)
        } catch {
            throw .upstream("\(resource).list: \(redacted(String(describing: error)))")
        }
        let data = Data(body.readableBytesView)
        guard status == 200 else {
            let failure = try? JSONDecoder().decode(ErrorAnswer.self, from: data)
            let reasons = failure?.error.errors?.compactMap(\.reason) ?? []
            if status == 403, reasons.contains("quotaExceeded") || reasons.contains("dailyLimitExceeded") {
                throw .quotaExceeded("\(resource).list answered 403 quotaExceeded")
            }
            let reason = reasons.first.map { DisplayText.line($0, limit: 80) } ?? "no reason given"
            throw .upstream("\(resource).list answered HTTP \(status) (\(reason))")
        }
        do {
            return try JSONDecoder().decode(ListAnswer<Item>.self, from: data)
        } catch {
            throw .garbage("\(resource).list answered something that is not a \(resource) list")
        }
    }

    private func redacted(_ text: String) -> String {
        text.replacingOccurrences(of: key, with: "<redacted>")
    }

    struct ListAnswer<Item: Decodable & Sendable>: Decodable, Sendable {
        var items: [Item]?
        var nextPageToken: String?
    }

    private struct VideoItem: Decodable, Sendable {
        struct ContentDetails: Decodable, Sendable { var duration: String? }
        struct Snippet: Decodable, Sendable { var liveBroadcastContent: String? }
        struct LiveStreamingDetails: Decodable, Sendable {
            var scheduledStartTime: String?
            var actualStartTime: String?
            var actualEndTime: String?
        }
        struct Status: Decodable, Sendable {
            var privacyStatus: String?
            var uploadStatus: String?
        }
        var id: String
        var contentDetails: ContentDetails?
        var snippet: Snippet?
        var liveStreamingDetails: LiveStreamingDetails?
        var status: Status?
    }

    private struct ChannelItem: Decodable, Sendable {
        struct Thumbnail: Decodable, Sendable { var url: String? }
        struct Snippet: Decodable, Sendable {
            var title: String?
            var thumbnails: [String: Thumbnail]?
        }
        var id: String
        var snippet: Snippet?
    }

    private struct PlaylistItem: Decodable, Sendable {
        struct ResourceID: Decodable, Sendable { var videoId: String? }
        struct Snippet: Decodable, Sendable {
            var title: String?
            var publishedAt: String?
            var resourceId: ResourceID?
        }
        struct ContentDetails: Decodable, Sendable {
            var videoId: String?
            var videoPublishedAt: String?
        }
        var snippet: Snippet?
        var contentDetails: ContentDetails?
    }

    private struct ErrorAnswer: Decodable {
        struct Detail: Decodable { var reason: String? }
        struct Body: Decodable { var errors: [Detail]? }
        var error: Body
    }
}
