import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import NIOCore

/// A loopback WebSub hub in front of a server whose `--public-url` is not where it listens: it
/// takes the server's subscription requests at `POST /subscribe`, verifies each against the
/// server as a hub does (on the callback's `/websub/CHANNEL_ID` path at the server's real
/// address), and delivers notifications signed with the subscription's secret.
public final class WebSubHubStub: Sendable {
    /// One subscription request the server posted.
    public struct Subscription: Sendable {
        /// `hub.callback`: the public URL, `/websub/`, the channel id.
        public let callback: String
        /// `hub.topic`: the channel's feed URL.
        public let topic: String
        /// `hub.secret`: the key of the notifications' HMAC.
        public let secret: String
    }

    private let subscriptions: AsyncStream<Subscription>
    private let continuation: AsyncStream<Subscription>.Continuation

    /// A hub that has received no request yet.
    public init() {
        (subscriptions, continuation) = AsyncStream.makeStream(of: Subscription.self)
    }

    /// The hub's router: `POST /subscribe` takes a form-encoded request and answers 202.
    public var router: Router<BasicRequestContext> {
        let router = Router()
        router.post("/subscribe") { [continuation] request, _ -> Response in
            var request = request
            var components = URLComponents()
            components.percentEncodedQuery = String(buffer: try await request.collectBody(upTo: 64 * 1024)).replacingOccurrences(of: "+", with: "%20")
            let fields = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            guard let callback = fields["hub.callback"], let topic = fields["hub.topic"], let secret = fields["hub.secret"] else {
                return Response(status: .badRequest)
            }
            continuation.yield(Subscription(callback: callback, topic: topic, secret: secret))
            return Response(status: .accepted)
        }
        return router
    }

    /// The next subscription request, waiting at most `timeout`; nil when none came (and then
    /// none is taken any more).
    public func nextSubscription(within timeout: Duration) async -> Subscription? {
        await withTaskGroup(of: Subscription?.self) { group in
            group.addTask { [subscriptions] in
                var iterator = subscriptions.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Confirms `subscription` for `leaseSeconds` as the hub does, against the server listening at
    /// `serverURL`; whether the server echoed the challenge.
    public func verify(_ subscription: Subscription, at serverURL: String, leaseSeconds: Int = 864_000) async throws -> Bool {
        let challenge = UUID().uuidString
        let query = Self.form([
            ("hub.mode", "subscribe"), ("hub.topic", subscription.topic), ("hub.challenge", challenge), ("hub.lease_seconds", String(leaseSeconds)),
        ])
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url(of: subscription, at: serverURL) + "?" + query), timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 64 * 1024)
        return response.status == .ok && String(buffer: body) == challenge
    }

    /// Posts `body` to the callback of `subscription` on the server at `serverURL`, signed as the
    /// hub signs; the status the server answered.
    public func deliver(_ body: String, to subscription: Subscription, at serverURL: String) async throws -> Int {
        var request = HTTPClientRequest(url: url(of: subscription, at: serverURL))
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/atom+xml")
        request.headers.add(name: "X-Hub-Signature", value: Self.signature(Data(body.utf8), secret: subscription.secret))
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 64 * 1024)
        return Int(response.status.code)
    }

    /// The `sha1=HEX` signature a hub sends for `body` under `secret`.
    public static func signature(_ body: Data, secret: String) -> String {
        let code = HMAC<Insecure.SHA1>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha1=" + code.map { String(format: "%02x", $0) }.joined()
    }

    /// The callback of `subscription` on the server at `serverURL`.
    private func url(of subscription: Subscription, at serverURL: String) -> String {
        serverURL + (subscription.callback.range(of: "/websub/").map { subscription.callback[$0.lowerBound...] } ?? "")
    }

    /// `fields` form-encoded, every reserved character escaped.
    private static func form(_ fields: [(String, String)]) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "")" }.joined(separator: "&")
    }
}
