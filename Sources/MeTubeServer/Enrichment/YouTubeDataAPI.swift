import AsyncHTTPClient
import Foundation
import MeTubeCore
import NIOCore

/// A channel's details from `channels.list`, sanitized.
struct YouTubeChannelDetails: Sendable, Equatable {
    /// The title as one line of at most 200 characters, nil when empty.
    var title: String?
    /// An `https` thumbnail URL of at most 2,048 bytes, nil when there is none usable.
    var thumbnailURL: String?
}

/// The two calls of the YouTube Data API v3 the enrichment makes, 1 quota unit each.
///
/// Every failure is thrown as a ``ServerError``: `.quotaExceeded` for the API's `quotaExceeded`
/// (403), `.upstream` for anything else (transport, other HTTP statuses, answers that are not in
/// the documented shape). Error texts never carry the key.
struct YouTubeDataAPI: Sendable {
    /// The most ids one call may name.
    static let maxIDsPerCall = 50
    /// The largest answer read.
    static let maxAnswerBytes = 4 << 20

    let configuration: YouTubeAPIConfiguration
    var httpClient: HTTPClient = .shared

    /// What `videos.list` says of one video.
    struct VideoDetails: Sendable, Equatable {
        /// `contentDetails.duration`, as written.
        var duration: String?
        /// Whether it can be watched; nil when the item says nothing of it.
        var state: LiveStreamingState?
    }

    /// The parts asked of `videos.list`: a call costs one unit whatever parts it names.
    static let videoParts = "contentDetails,snippet,liveStreamingDetails,status"

    /// `videos.list` with ``videoParts`` for `ids` (at most 50): each returned video's duration
    /// text and live-streaming state read at `now`, by video id. Videos the API does not return
    /// are missing (the caller counts them ``LiveStreamingState/gone``).
    func videoDetails(_ ids: [String], now: Date) async throws -> [String: VideoDetails] {
        let answer = try await list(VideoItem.self, resource: "videos", part: Self.videoParts, ids: ids)
        var details: [String: VideoDetails] = [:]
        for item in answer where ids.contains(item.id) {
            let live = item.liveStreamingDetails
            let state = LiveStreamingState(
                liveBroadcastContent: item.snippet?.liveBroadcastContent, scheduledStartTime: live?.scheduledStartTime,
                actualStartTime: live?.actualStartTime, actualEndTime: live?.actualEndTime,
                privacyStatus: item.status?.privacyStatus, uploadStatus: item.status?.uploadStatus, now: now)
            details[item.id] = VideoDetails(duration: item.contentDetails?.duration, state: state)
        }
        return details
    }

    /// `channels.list?part=snippet` for `ids` (at most 50): each returned channel's title and
    /// thumbnail (medium, else high, else default), by channel id.
    func channelDetails(_ ids: [String]) async throws -> [String: YouTubeChannelDetails] {
        let answer = try await list(ChannelItem.self, resource: "channels", part: "snippet", ids: ids)
        var details: [String: YouTubeChannelDetails] = [:]
        for item in answer where ids.contains(item.id) {
            let title = item.snippet?.title.map { DisplayText.line($0.trimmingCharacters(in: .whitespacesAndNewlines), limit: 200) }
            let thumbnails = item.snippet?.thumbnails ?? [:]
            let url = ["medium", "high", "default"].lazy.compactMap { thumbnails[$0]?.url }.first(where: Self.isUsableImageURL)
            details[item.id] = YouTubeChannelDetails(title: title?.isEmpty == false ? title : nil, thumbnailURL: url)
        }
        return details
    }

    /// Whether `url` is an `https` URL with a host, of visible ASCII, at most 2,048 bytes.
    static func isUsableImageURL(_ url: String) -> Bool {
        guard url.utf8.count <= 2_048, url.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value != 0x7F }),
              let components = URLComponents(string: url), components.scheme == "https", components.host?.isEmpty == false
        else { return false }
        return true
    }

    private func list<Item: Decodable & Sendable>(_ type: Item.Type, resource: String, part: String, ids: [String]) async throws -> [Item] {
        precondition(ids.count <= Self.maxIDsPerCall, "the Data API takes at most 50 ids a call")
        let url = "\(configuration.baseURL)/\(resource)?part=\(part)&id=\(ids.joined(separator: ","))&maxResults=\(Self.maxIDsPerCall)&key=\(configuration.key)"
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "metube-server")
        request.headers.add(name: "Accept", value: "application/json")
        let status: Int
        let body: ByteBuffer
        do {
            let response = try await httpClient.execute(request, timeout: .seconds(30))
            status = Int(response.status.code)
            body = try await response.body.collect(upTo: Self.maxAnswerBytes)
        } catch {
            throw ServerError.upstream("\(resource).list: \(redacted(String(describing: error)))")
        }
        let data = Data(body.readableBytesView)
        guard status == 200 else {
            let failure = try? JSONDecoder().decode(ErrorAnswer.self, from: data)
            let reasons = failure?.error.errors?.compactMap(\.reason) ?? []
            if status == 403, reasons.contains("quotaExceeded") || reasons.contains("dailyLimitExceeded") {
                throw ServerError.quotaExceeded("\(resource).list answered 403 quotaExceeded")
            }
            let reason = reasons.first.map { DisplayText.line($0, limit: 80) } ?? "no reason given"
            throw ServerError.upstream("\(resource).list answered HTTP \(status) (\(reason))")
        }
        do {
            return try JSONDecoder().decode(ListAnswer<Item>.self, from: data).items ?? []
        } catch {
            throw ServerError.upstream("\(resource).list answered something that is not a \(resource) list")
        }
    }

    private func redacted(_ text: String) -> String {
        text.replacingOccurrences(of: configuration.key, with: "<redacted>")
    }

    private struct ListAnswer<Item: Decodable>: Decodable {
        var items: [Item]?
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

    private struct ErrorAnswer: Decodable {
        struct Detail: Decodable { var reason: String? }
        struct Body: Decodable { var errors: [Detail]? }
        var error: Body
    }
}
