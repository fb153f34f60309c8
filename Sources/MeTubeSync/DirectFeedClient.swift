import AsyncHTTPClient
import Foundation
import MeTubeCore
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
    private let httpClient: HTTPClient

    /// Creates a client for `urlTemplate` (YouTube's by default).
    public init(urlTemplate: String = Self.youTubeTemplate, timeout: Duration = .seconds(20), httpClient: HTTPClient = .sync) {
        self.urlTemplate = urlTemplate
        self.timeout = timeout
        self.httpClient = httpClient
    }

    /// Fetches the feed of `channelID`, sending the validators of the previous fetch.
    public func fetch(channelID: String, etag: String?, lastModified: String?) async throws(SyncError) -> Outcome {
        var request = HTTPClientRequest(url: urlTemplate.replacingOccurrences(of: "{channelId}", with: channelID))
        request.headers.add(name: "User-Agent", value: "metube")
        if let etag { request.headers.add(name: "If-None-Match", value: etag) }
        if let lastModified { request.headers.add(name: "If-Modified-Since", value: lastModified) }
        let body: ByteBuffer
        let response: HTTPClientResponse
        do {
            response = try await httpClient.execute(request, timeout: .nanoseconds(Int64(timeout.components.seconds) * 1_000_000_000))
            if response.status == .notModified { return .notModified }
            body = try await response.body.collect(upTo: 16 << 20)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw .timeout(seconds: Double(timeout.components.seconds))
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .connection(HubClient.describe(error))
        }
        guard response.status == .ok else {
            throw .http(status: Int(response.status.code), message: response.status.reasonPhrase, retryAfter: nil)
        }
        do {
            let feed = try AtomFeedParser.parse(Data(body.readableBytesView))
            return .feed(feed, etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"))
        } catch {
            throw .invalidResponse(error.description)
        }
    }
}
