import AsyncHTTPClient
import Foundation
import MeTubeAPI
import MeTubeCore
import MeTubeTransfer
import NIOCore
import NIOHTTP1

/// Talks to a MeTube hub (section A of the hub API) over HTTP, retrying retryable failures.
public struct HubClient: Sendable {
    /// The hub's base URL, e.g. `http://127.0.0.1:8787`.
    public let baseURL: String
    /// How long one request may take (connect, headers and body).
    public var timeout: Duration {
        get { limits.total }
        set { limits.total = newValue }
    }
    /// The bounds of every request: total time, minimum rate, body size, the run's deadline.
    public var limits: TransferLimits
    /// When to retry.
    public var retryPolicy: RetryPolicy
    private let httpClient: HTTPClient

    /// Creates a client for the hub at `baseURL` (a trailing slash is ignored).
    public init(baseURL: String, timeout: Duration = .seconds(15), retryPolicy: RetryPolicy = RetryPolicy(), httpClient: HTTPClient = .peers) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.limits = TransferLimits(total: timeout)
        self.retryPolicy = retryPolicy
        self.httpClient = httpClient
    }

    /// `GET /health`; succeeds when the hub answers 200 (one attempt, no retries).
    public func health() async throws(SyncError) {
        _ = try await send(method: .GET, path: HubAPI.healthPath, body: nil, retrying: false) { $0 }
    }

    /// Registers `channelIDs` (at most `HubAPI.maxRegisterChannelIDs`); each count of the answer
    /// is read on its own and clamped to 0…1,000,000 (0 when it is not an integer).
    public func register(_ channelIDs: [String]) async throws(SyncError) -> HubRegisterResponse {
        let screened: ScreenedRegisterAnswer = try await post(HubAPI.registerPath, HubRegisterRequest(channelIDs: channelIDs))
        return screened.answer
    }

    /// `channels/resolve`: what the hub made of `links` (at most `HubAPI.maxResolveLinks`), asked
    /// as the mark-sync user of `token`; one result per link, in order, screened: a channel id that
    /// is not a valid `UC…` id reads as a failure, every error text is one line of at most 300
    /// characters. An answer whose results do not match the links sent is `invalidResponse`.
    public func resolve(_ links: [String], token: String) async throws(SyncError) -> [HubResolveResult] {
        let answer: HubResolveResponse = try await post(HubAPI.resolvePath, HubResolveRequest(links: links), bearer: token)
        guard answer.results.count == links.count, zip(answer.results, links).allSatisfy({ $0.link == $1 }) else {
            throw .invalidResponse("\(HubAPI.resolvePath): the results do not match the \(links.count) links sent")
        }
        return answer.results.map { result in
            if let id = result.channelID {
                guard ChannelID.isValid(id) else {
                    return HubResolveResult(link: result.link, failure: .unavailable, error: "the hub answered an invalid channel id")
                }
                return HubResolveResult(link: result.link, channelID: id)
            }
            return HubResolveResult(link: result.link, failure: result.code ?? .unavailable,
                                    error: PeerInput.errorText((result.error ?? "no reason given").utf8, limit: 300, hiding: [token]))
        }
    }

    /// Every channel the hub holds, screened, page by page (`nextAfterChannelId`). A cursor that
    /// does not move forward, or more than `maxPages` pages, ends the listing with an error.
    func channels(maxPages: Int = 1_000) async throws(SyncError) -> ScreenedHubChannels {
        var all = ScreenedHubChannels()
        var after: String?
        for _ in 0..<maxPages {
            let page: ScreenedHubChannels = try await post(HubAPI.channelsPath, HubChannelsRequest(afterChannelID: after))
            all.channels += page.channels
            all.dropped += page.dropped
            guard let next = page.nextAfterChannelID else { return all }
            guard next > (after ?? "") else { throw .limitExceeded("the hub's channel list does not move forward (next page after \(next))") }
            after = next
        }
        throw .limitExceeded("the hub's channel list has more than \(maxPages) pages")
    }

    /// One page of videos, screened row by row.
    func videos(_ query: HubVideoQuery) async throws(SyncError) -> ScreenedHubPage {
        try await post(HubAPI.videoQueryPath, query) { (answer) throws(SyncError) in
            let page = answer.withUnsafeReadableBytes { bytes in
                Result { () throws(SyncError) in try ScreenedHubPage(json: bytes) }
            }
            do throws(SyncError) {
                return try page.get()
            } catch .invalidResponse(let reason) {
                throw .invalidResponse("\(HubAPI.videoQueryPath): \(reason)")
            } catch {
                throw error
            }
        }
    }

    private func post<Body: Encodable, Answer: Decodable>(_ path: String, _ body: Body?, bearer: String? = nil) async throws(SyncError) -> Answer {
        try await post(path, body, bearer: bearer) { (answer) throws(SyncError) in
            do {
                return try JSONDecoder().decode(Answer.self, from: Data(answer.readableBytesView))
            } catch {
                throw .invalidResponse("\(path): \(Self.describe(error))")
            }
        }
    }

    /// Posts `body` as JSON, with `bearer` as its `Authorization` when given, and reads the answer with `read`.
    private func post<Body: Encodable, Answer>(
        _ path: String, _ body: Body?, bearer: String? = nil, read: (ByteBuffer) throws(SyncError) -> Answer
    ) async throws(SyncError) -> Answer {
        let bytes: ByteBuffer?
        do {
            bytes = try body.map { ByteBuffer(bytes: try JSONEncoder().encode($0)) }
        } catch {
            throw .invalidResponse("cannot encode the request: \(error)")
        }
        return try await send(method: .POST, path: path, body: bytes, bearer: bearer, retrying: true, read: read)
    }

    /// Sends the request and reads the answer with `read`, retrying per `retryPolicy` when either fails
    /// retryably (an unreadable answer counts: it is usually a connection cut mid-body).
    private func send<Answer>(
        method: HTTPMethod, path: String, body: ByteBuffer?, bearer: String? = nil, retrying: Bool,
        read: (ByteBuffer) throws(SyncError) -> Answer
    ) async throws(SyncError) -> Answer {
        let policy = retrying ? retryPolicy : .none
        return try await policy.perform { () async throws(SyncError) -> Answer in
            try read(try await sendOnce(method: method, path: path, body: body, bearer: bearer))
        }
    }

    private func sendOnce(method: HTTPMethod, path: String, body: ByteBuffer?, bearer: String?) async throws(SyncError) -> ByteBuffer {
        if Task.isCancelled { throw .cancelled }
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "User-Agent", value: "metube")
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        let response: PeerResponse
        do throws(TransferFailure) {
            response = try await httpClient.transfer(request, jsonBody: body, limits: limits)
        } catch {
            throw SyncError(error, path: path)
        }
        guard (200..<300).contains(response.status) else {
            let secrets = bearer.map { [$0] } ?? []
            let message = (try? JSONDecoder().decode(HubErrorBody.self, from: Data(response.body.readableBytesView)))
                .map { PeerInput.errorText($0.error.utf8, hiding: secrets) }
                ?? PeerInput.errorText(response.body.readableBytesView, hiding: secrets)
            let retryAfter = PeerInput.retryAfter(header: response.headers.first(name: "Retry-After"))
            throw SyncError.http(status: response.status, message: message, retryAfter: retryAfter)
        }
        return response.body
    }

    static func describe(_ error: any Error) -> String {
        if let decoding = error as? DecodingError {
            switch decoding {
            case .dataCorrupted(let context): return "malformed JSON (\(context.debugDescription))"
            case .keyNotFound(let key, _): return "missing field \(key.stringValue)"
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                return "unexpected value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
            @unknown default: return "\(decoding)"
            }
        }
        return String(describing: error)
    }
}

/// A register answer whose counts are range-checked one by one.
private struct ScreenedRegisterAnswer: Decodable {
    let answer: HubRegisterResponse

    private enum Keys: String, CodingKey { case requested, inserted, alreadyPresent, totalChannels, pendingChannels }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        func count(_ key: Keys) -> Int {
            min(max((try? container.decode(Int.self, forKey: key)) ?? 0, 0), 1_000_000)
        }
        answer = HubRegisterResponse(
            requested: count(.requested), inserted: count(.inserted), alreadyPresent: count(.alreadyPresent), totalChannels: count(.totalChannels),
            pendingChannels: container.contains(.pendingChannels) ? count(.pendingChannels) : nil)
    }
}
