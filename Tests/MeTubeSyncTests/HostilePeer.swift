import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import TestSupport

/// A scriptable misbehaving server on 127.0.0.1, standing in for a hostile hub, mark-sync service or
/// feed server: every request is answered by the script, which may send any status, headers and
/// body bytes, stall after the headers, or drip the body a few bytes at a time.
final class HostilePeer: Sendable {
    /// What the peer received.
    struct Request: Sendable {
        let method: String
        let path: String
        let query: String
        let headers: HTTPFields
        let body: Data

        /// The body as JSON, when it is an object.
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    }

    /// How the body of an answer is sent.
    enum Body: Sendable {
        /// All at once.
        case bytes(Data)
        /// `prefix`, then nothing for `stall` (the connection stays open), then the rest.
        case stall(prefix: Data, for: Duration, rest: Data)
        /// `chunkSize` bytes every `interval`.
        case drip(Data, chunkSize: Int, every: Duration)
    }

    /// An answer.
    struct Reply: Sendable {
        var status = 200
        var headers: [(String, String)] = [("Content-Type", "application/json")]
        var body: Body

        /// A JSON answer.
        static func json(_ text: String, status: Int = 200, headers: [(String, String)] = []) -> Reply {
            Reply(status: status, headers: [("Content-Type", "application/json")] + headers, body: .bytes(Data(text.utf8)))
        }
    }

    /// The base URL, e.g. `http://127.0.0.1:54321`.
    let url: String
    private let service: BackgroundService
    private let log: RequestLog

    /// Every request so far, in order.
    var requests: [Request] { log.requests.withLock { $0 } }

    /// The requests a peer received.
    private final class RequestLog: Sendable {
        let requests = Mutex<[Request]>([])
    }

    private init(url: String, service: BackgroundService, log: RequestLog) {
        self.url = url
        self.service = service
        self.log = log
    }

    /// Starts a peer answering every request with `script`.
    static func start(_ script: @escaping @Sendable (Request) async -> Reply) async throws -> HostilePeer {
        let log = RequestLog()
        let router = Router()
        let handler: @Sendable (Hummingbird.Request, BasicRequestContext) async throws -> Response = { request, _ in
            let body = try await request.body.collect(upTo: 16 << 20)
            let seen = Request(
                method: request.method.rawValue, path: request.uri.path, query: request.uri.query ?? "",
                headers: request.headers, body: Data(body.readableBytesView))
            log.requests.withLock { $0.append(seen) }
            return response(await script(seen))
        }
        router.get("**", use: handler)
        router.post("**", use: handler)
        let (service, url) = await BackgroundService.serve(router, label: "hostile-peer")
        return HostilePeer(url: url, service: service, log: log)
    }

    /// Stops the server.
    func stop() { service.stop() }

    private static func response(_ reply: Reply) -> Response {
        var headers = HTTPFields()
        for (name, value) in reply.headers {
            if let field = HTTPField.Name(name) { headers.append(HTTPField(name: field, value: value)) }
        }
        let body: ResponseBody
        switch reply.body {
        case .bytes(let data):
            body = ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        case .stall(let prefix, let duration, let rest):
            body = ResponseBody { writer in
                try await writer.write(ByteBuffer(bytes: prefix))
                try await Task.sleep(for: duration)
                try await writer.write(ByteBuffer(bytes: rest))
                try await writer.finish(nil)
            }
        case .drip(let data, let size, let interval):
            body = ResponseBody { writer in
                var offset = 0
                while offset < data.count {
                    let end = min(offset + size, data.count)
                    try await writer.write(ByteBuffer(bytes: data[offset..<end]))
                    offset = end
                    try await Task.sleep(for: interval)
                }
                try await writer.finish(nil)
            }
        }
        return Response(status: .init(code: reply.status), headers: headers, body: body)
    }
}

/// JSON for scripted hub answers.
enum HostileHub {
    /// A valid channel id for `number`.
    static func channelID(_ number: Int) -> String { "UC" + String(repeating: "A", count: 20) + String(format: "%02d", number % 100) }

    /// A valid video id for `number`.
    static func videoID(_ number: Int) -> String { "V" + String(format: "%010d", number) }

    /// One row as JSON.
    static func row(seq: Int64, videoID: String, channelID: String, title: String = "a video", duration: String = "60") -> String {
        "{\"seq\":\(seq),\"videoId\":\(quoted(videoID)),\"channelId\":\(quoted(channelID)),\"publishedAt\":\"2025-12-10T18:11:22Z\",\"title\":\(quoted(title)),\"url\":\"https://www.youtube.com/watch?v=x\",\"durationSeconds\":\(duration)}"
    }

    /// A page of `rows` claiming `maxSeqReturned`.
    static func page(_ rows: [String], maxSeqReturned: String) -> String {
        "{\"videos\":[\(rows.joined(separator: ","))],\"maxSeqReturned\":\(maxSeqReturned)}"
    }

    /// The register answer for a request carrying `count` channels.
    static func registered(_ count: Int, inserted: Int = 0) -> String {
        "{\"requested\":\(count),\"inserted\":\(inserted),\"alreadyPresent\":\(count - inserted),\"totalChannels\":\(count)}"
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// The `afterSeq` and page size of a `videos/query` request.
    static func query(_ request: HostilePeer.Request) -> (afterSeq: Int64, limit: Int) {
        struct Query: Decodable {
            var afterSeq: Int64?
            var limit: Int?
        }
        let query = try? JSONDecoder().decode(Query.self, from: request.body)
        return (query?.afterSeq ?? 0, query?.limit ?? 200)
    }
}

/// A value as text (an error's description, or a string itself), so assertions read the same
/// whatever type a report field has.
func describing<Value>(_ value: Value?) -> String? {
    value.map { "\($0)" }
}
