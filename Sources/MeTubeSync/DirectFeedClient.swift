import AsyncHTTPClient
import Foundation
import MeTubeCore
import MeTubeFeeds
import MeTubeTransfer
import NIOCore
import NIOHTTP1

/// Fetches channels' Atom feeds straight from YouTube (or any server following the same URL
/// template), with conditional GET.
public struct DirectFeedClient: Sendable {
    /// YouTube's channel feed URL with `{channelId}` where the id goes.
    public static let youTubeTemplate = "https://www.youtube.com/feeds/videos.xml?channel_id={channelId}"

    /// What one fetch found.
    public enum Outcome: Sendable {
        /// A fresh feed and its validators for the next conditional GET.
        case feed(AtomFeed, etag: String?, lastModified: String?)
        /// The feed has not changed since the validators were issued.
        case notModified
    }

    /// The feed URL template.
    public var urlTemplate: String
    /// How long one fetch may take.
    public var timeout: Duration
    /// When the run the fetches belong to ends; no fetch outlives it.
    public var runDeadline: ContinuousClock.Instant?
    private let httpClient: HTTPClient

    /// Creates a client for `urlTemplate` (YouTube's by default).
    public init(urlTemplate: String = Self.youTubeTemplate, timeout: Duration = .seconds(20), httpClient: HTTPClient = .peers) {
        self.urlTemplate = urlTemplate
        self.timeout = timeout
        self.httpClient = httpClient
    }

    /// Fetches the feed of `channelID`, sending the validators of the previous fetch. The fetch
    /// is bounded like every peer request (``TransferLimits``, 4 MiB at most), and validators
    /// longer than a URL are not kept.
    public func fetch(channelID: String, etag: String?, lastModified: String?) async throws(SyncError) -> Outcome {
        var request = HTTPClientRequest(url: urlTemplate.replacingOccurrences(of: "{channelId}", with: channelID))
        if let etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }
        let response = try await get(request, maxBodyBytes: 4 << 20, path: "feed of \(channelID)")
        if response.status == 304 { return .notModified }
        return .feed(
            try Self.parse(response), etag: PeerInput.shortText(response.headers.first(name: "ETag")),
            lastModified: PeerInput.shortText(response.headers.first(name: "Last-Modified")))
    }

    /// Whether the URL template is YouTube's shape, which gives each channel a Shorts feed
    /// (``ShortsFeed/url(channelFeedTemplate:channelID:)``).
    public var hasShortsFeeds: Bool { ShortsFeed.exists(channelFeedTemplate: urlTemplate) }

    /// Fetches the Shorts playlist feed of `channelID` (``ShortsFeed``), bounded like the channel
    /// feed but to ``ShortsFeed/maxBodyBytes``; nil when the template has no Shorts feeds.
    public func fetchShorts(channelID: String) async throws(SyncError) -> AtomFeed? {
        guard let url = ShortsFeed.url(channelFeedTemplate: urlTemplate, channelID: channelID) else { return nil }
        let response = try await get(HTTPClientRequest(url: url), maxBodyBytes: ShortsFeed.maxBodyBytes, path: "Shorts feed of \(channelID)")
        return try Self.parse(response)
    }

    /// Sends `request`; an answer other than 200 or 304 throws with its status and Retry-After.
    private func get(_ request: HTTPClientRequest, maxBodyBytes: Int, path: String) async throws(SyncError) -> PeerResponse {
        var request = request
        request.headers.add(name: "User-Agent", value: "metube")
        let response: PeerResponse
        do throws(TransferFailure) {
            response = try await httpClient.transfer(request, limits: TransferLimits(total: timeout, maxBodyBytes: maxBodyBytes, runDeadline: runDeadline))
        } catch {
            throw SyncError(error, path: path)
        }
        guard response.status == 200 || response.status == 304 else {
            let retryAfter = RetryAfter.parse(response.headers.first(name: "Retry-After"), now: Date())
            throw .http(status: response.status, message: HTTPResponseStatus(statusCode: response.status).reasonPhrase, retryAfter: retryAfter)
        }
        return response
    }

    private static func parse(_ response: PeerResponse) throws(SyncError) -> AtomFeed {
        do {
            return try AtomFeedParser.parse(Data(response.body.readableBytesView))
        } catch {
            throw .invalidResponse(error.description)
        }
    }
}
