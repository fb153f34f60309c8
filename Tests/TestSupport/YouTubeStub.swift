import Foundation
import Hummingbird
import Synchronization

/// Google's OAuth device flow and the Data API's `subscriptions.list` on 127.0.0.1, answering in
/// their documented shapes: `/device/code`, `/token` (device-code polls and refreshes) and
/// `/subscriptions` (50 a page through `nextPageToken`, bearer tokens checked, 401 for a stale
/// one). A test scripts the device-code polls and may answer any request itself (`override`).
public final class YouTubeStub: Sendable {
    /// What the stub received.
    public struct Request: Sendable {
        /// `GET` or `POST`.
        public let method: String
        /// The path, e.g. `/token`.
        public let path: String
        /// The query's parameters.
        public let query: [String: String]
        /// The form body's parameters.
        public let form: [String: String]
        /// The bearer token sent, if any.
        public let bearer: String?
    }

    /// An answer.
    public struct Reply: Sendable {
        /// The HTTP status.
        public var status: Int
        /// The body.
        public var body: Data

        /// A JSON answer.
        public static func json(_ text: String, status: Int = 200) -> Reply { Reply(status: status, body: Data(text.utf8)) }
    }

    private struct State {
        var requests: [Request] = []
        var polls = 0
        var issued = 0
    }

    /// The base URL, used as both `oauth-url` and `api-url`.
    public let url: String
    private let service: BackgroundService
    private let box: StateBox

    /// Every request so far, in order.
    public var requests: [Request] { box.state.withLock { $0.requests } }

    private init(url: String, service: BackgroundService, box: StateBox) {
        self.url = url
        self.service = service
        self.box = box
    }

    /// Starts a stub whose account follows `channels` (id, title). The device-code polls get
    /// `polls` in order (the last repeats); a refresh of `revokedRefreshToken` is `invalid_grant`,
    /// any other refresh issues `access-N`; only the latest issued access token (or
    /// `initialAccessToken`) reads the subscriptions. `override` answers a request first when it
    /// returns a reply; it is given the request and how many `/subscriptions` pages came before.
    public static func start(
        channels: [(id: String, title: String)] = [], polls: [Reply] = [.json(token(access: "access-0", refresh: "refresh-1"))],
        initialAccessToken: String = "access-0", revokedRefreshToken: String = "revoked",
        override: @escaping @Sendable (Request, Int) -> Reply? = { _, _ in nil }
    ) async -> YouTubeStub {
        let box = StateBox()
        let router = Router()
        let handler: @Sendable (Hummingbird.Request, BasicRequestContext) async throws -> Response = { request, _ in
            let body = try await request.body.collect(upTo: 1 << 20)
            let seen = Request(
                method: request.method.rawValue, path: request.uri.path, query: parameters(request.uri.query ?? ""),
                form: parameters(String(buffer: body)),
                bearer: request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil })
            let pagesBefore = box.state.withLock { state in
                state.requests.append(seen)
                return state.requests.filter { $0.path.hasSuffix("/subscriptions") }.count - 1
            }
            let reply = override(seen, pagesBefore) ?? answer(seen, box: box, channels: channels, polls: polls,
                                                               initialAccessToken: initialAccessToken, revoked: revokedRefreshToken)
            return Response(status: .init(code: reply.status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
        }
        router.get("**", use: handler)
        router.post("**", use: handler)
        let (service, url) = await BackgroundService.serve(router, label: "youtube-stub")
        return YouTubeStub(url: url, service: service, box: box)
    }

    /// Stops the server.
    public func stop() { service.stop() }

    /// The state, shared by the handler and the stub.
    private final class StateBox: Sendable {
        let state = Mutex(State())
    }

    private static func answer(_ request: Request, box: StateBox, channels: [(id: String, title: String)], polls: [Reply], initialAccessToken: String, revoked: String) -> Reply {
        switch request.path {
        case "/device/code":
            return .json(deviceCode())
        case "/token" where request.form["grant_type"] == "refresh_token":
            if request.form["refresh_token"] == revoked { return .json(oauthError("invalid_grant", description: "Token has been expired or revoked."), status: 400) }
            let issued = box.state.withLock { state in
                state.issued += 1
                return state.issued
            }
            return .json("{\"access_token\":\"access-\(issued)\",\"expires_in\":3599,\"scope\":\"https://www.googleapis.com/auth/youtube.readonly\",\"token_type\":\"Bearer\"}")
        case "/token":
            let index = box.state.withLock { state in
                state.polls += 1
                return state.polls - 1
            }
            return polls[min(index, polls.count - 1)]
        case "/subscriptions":
            let current = box.state.withLock { $0.issued == 0 ? initialAccessToken : "access-\($0.issued)" }
            guard request.bearer == current else {
                return .json(apiError(status: 401, reason: "authError", message: "Request had invalid authentication credentials."), status: 401)
            }
            let page = request.query["pageToken"].flatMap { $0.hasPrefix("p") ? Int($0.dropFirst()) : nil } ?? 0
            let size = Int(request.query["maxResults"] ?? "5") ?? 5
            let slice = Array(channels.dropFirst(page * size).prefix(size))
            let next = (page + 1) * size < channels.count ? "p\(page + 1)" : nil
            return .json(subscriptionsPage(slice, next: next, total: channels.count))
        default:
            return .json(apiError(status: 404, reason: "notFound", message: "Not Found"), status: 404)
        }
    }

    private static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            if parts.count == 2 { result[parts[0]] = parts[1] }
        }
        return result
    }

    // MARK: Google's documented shapes

    /// The device-code answer.
    public static func deviceCode(interval: String = "5", expiresIn: String = "1800", userCode: String = "GQVQ-JKEC") -> String {
        "{\"device_code\":\"4/4-GMMhmHCXhWEzkobqIHGG_EnNYYsAkukHspeYUk9E8\",\"user_code\":\(quoted(userCode)),\"expires_in\":\(expiresIn),\"interval\":\(interval),\"verification_url\":\"https://www.google.com/device\"}"
    }

    /// A granted token answer; `refresh` nil leaves `refresh_token` out.
    public static func token(access: String, refresh: String?) -> String {
        let refreshField = refresh.map { ",\"refresh_token\":\(quoted($0))" } ?? ""
        return "{\"access_token\":\(quoted(access)),\"expires_in\":3599\(refreshField),\"scope\":\"https://www.googleapis.com/auth/youtube.readonly\",\"token_type\":\"Bearer\"}"
    }

    /// An OAuth error answer, e.g. `authorization_pending` (sent with 428) or `access_denied` (403).
    public static func oauthError(_ error: String, description: String? = nil) -> String {
        "{\"error\":\(quoted(error))\(description.map { ",\"error_description\":\(quoted($0))" } ?? "")}"
    }

    /// A Data API error answer, e.g. 403 `quotaExceeded`.
    public static func apiError(status: Int, reason: String, message: String) -> String {
        "{\"error\":{\"code\":\(status),\"message\":\(quoted(message)),\"errors\":[{\"message\":\(quoted(message)),\"domain\":\"youtube.quota\",\"reason\":\(quoted(reason))}]}}"
    }

    /// One `subscriptionListResponse` page.
    public static func subscriptionsPage(_ channels: [(id: String, title: String)], next: String?, total: Int? = nil) -> String {
        let items = channels.map { channel in
            """
            {"kind":"youtube#subscription","etag":"e","id":\(quoted("sub-" + channel.id)),"snippet":{"publishedAt":"2021-03-04T10:11:12.000Z",\
            "title":\(quoted(channel.title)),"description":"","resourceId":{"kind":"youtube#channel","channelId":\(quoted(channel.id))},\
            "channelId":"UCsubscriberAAAAAAAAAAAA","thumbnails":{"default":{"url":\(quoted("https://yt3.ggpht.com/\(channel.id)=s88"))},\
            "medium":{"url":\(quoted("https://yt3.ggpht.com/\(channel.id)=s240"))},"high":{"url":\(quoted("https://yt3.ggpht.com/\(channel.id)=s800"))}}}}
            """
        }
        let nextField = next.map { "\"nextPageToken\":\(quoted($0))," } ?? ""
        return "{\"kind\":\"youtube#subscriptionListResponse\",\"etag\":\"e\",\(nextField)\"pageInfo\":{\"totalResults\":\(total ?? channels.count),\"resultsPerPage\":50},\"items\":[\(items.joined(separator: ","))]}"
    }

    /// A valid channel id for `number`.
    public static func channelID(_ number: Int) -> String { "UC" + String(format: "%022d", number) }

    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: [.fragmentsAllowed]), as: UTF8.self)
    }
}
