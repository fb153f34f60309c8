import AsyncHTTPClient
import Crypto
import Foundation
import MeTubeCore
import MeTubeTransfer
import NIOCore

/// Asks SponsorBlock for a video's segments through its privacy-preserving endpoint:
/// `GET {api}/api/skipSegments/{first 4 hex of sha256(videoID)}?categories=[…]` answers with the
/// segments of every video whose id hashes alike, and only the video's own are kept. The answer
/// is a hostile peer's like any other: bounded in time and size (``maxAnswerBytes``), read
/// entry by entry (one unreadable entry drops only itself) and screened
/// (``SponsorSegment/screened(_:categories:duration:)``).
public struct SponsorBlockClient: Sendable {
    /// The largest answer read: a bucket with every category is some 50 KB; 10,000 segments of
    /// one video still fit (and are screened down to ``SponsorSegment/maxCount``).
    public static let maxAnswerBytes = 4 << 20

    /// The API's base URL, e.g. `https://sponsor.ajay.app`.
    public let api: String
    /// How long one request may take, from connecting to the answer's last byte.
    public let timeLimit: Duration
    private let httpClient: HTTPClient

    /// A client of the API at `api`.
    public init(api: String, timeLimit: Duration = .seconds(10), httpClient: HTTPClient = .peers) {
        self.api = api.hasSuffix("/") ? String(api.dropLast()) : api
        self.timeLimit = timeLimit
        self.httpClient = httpClient
    }

    /// The segments of `videoID` in `categories`, cut at `duration` when it is known; none when
    /// SponsorBlock knows of none (it answers 404).
    public func segments(of videoID: String, categories: [String], duration: Double?) async throws(SponsorBlockError) -> [SponsorSegment] {
        guard VideoID.isValid(videoID) else { throw .notAVideoID(videoID) }
        var request = HTTPClientRequest(url: requestURL(videoID: videoID, categories: categories))
        request.headers.add(name: "User-Agent", value: "metube")
        let response: PeerResponse
        do throws(TransferFailure) {
            response = try await httpClient.transfer(request, limits: TransferLimits(total: timeLimit, maxBodyBytes: Self.maxAnswerBytes))
        } catch {
            throw .transfer(error)
        }
        if response.status == 404 { return [] }
        guard response.status == 200 else { throw .http(status: response.status) }
        let entries: [Lenient<Entry>]
        do {
            let decoder = JSONDecoder()
            decoder.allowsJSON5 = true
            entries = try decoder.decode([Lenient<Entry>].self, from: Data(response.body.readableBytesView))
        } catch {
            throw .unreadable
        }
        let own = entries.lazy.compactMap(\.value).filter { $0.videoID == videoID }.flatMap(\.segments).compactMap(\.value)
            .filter { ($0.actionType ?? "skip") == "skip" }
            .map { SponsorSegment(start: $0.segment[0], end: $0.segment[1], category: $0.category) }
        return SponsorSegment.screened(own, categories: categories, duration: duration)
    }

    /// The request's URL: the hash prefix only, never the video id.
    func requestURL(videoID: String, categories: [String]) -> String {
        let list = "[" + categories.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let query = list.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "\(api)/api/skipSegments/\(Self.hashPrefix(of: videoID))?categories=\(query)"
    }

    /// The first 4 hex digits of the SHA-256 of `videoID`.
    public static func hashPrefix(of videoID: String) -> String {
        SHA256.hash(data: Data(videoID.utf8)).prefix(2).map { String(format: "%02x", $0) }.joined()
    }

    /// One video of the answer.
    private struct Entry: Decodable {
        var videoID: String
        var segments: [Lenient<Segment>]
    }

    /// One segment of the answer: `segment` is `[start, end]` in seconds.
    private struct Segment: Decodable {
        var category: String
        var actionType: String?
        var segment: [Double]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            category = try container.decode(String.self, forKey: .category)
            actionType = try container.decodeIfPresent(String.self, forKey: .actionType)
            segment = try container.decode([Double].self, forKey: .segment)
            guard segment.count == 2 else {
                throw DecodingError.dataCorruptedError(forKey: .segment, in: container, debugDescription: "not [start, end]")
            }
        }

        private enum CodingKeys: String, CodingKey { case category, actionType, segment }
    }

    /// A value that decodes to `nil` instead of failing the whole answer.
    private struct Lenient<Value: Decodable>: Decodable {
        var value: Value?

        init(from decoder: any Decoder) throws {
            value = try? Value(from: decoder)
        }
    }
}
