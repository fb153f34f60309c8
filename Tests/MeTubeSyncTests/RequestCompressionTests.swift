import Foundation
import HTTPTypes
import Hummingbird
import MeTubeAPI
import MeTubeServer
import Synchronization
import Testing
import TestSupport
@testable import MeTubeSync

/// The client gzips its large request bodies to a server that says it takes them (its answers'
/// `Accept-Encoding`, RFC 7694), sends them as they are to one that does not, and falls back to
/// them as they are on a 415: each against the real hub, registering 1,200 channels in chunks of
/// 500.
@Suite struct RequestCompressionTests {
    static let channelIDs = SyntheticLibrary(channelCount: 1_200, markCount: 0).channels().map(\.id)

    @Test func aServerThatTakesGzipGetsEveryBodyGzippedOnceItHasSaidSo() async throws {
        // Given the real hub, which says `Accept-Encoding: gzip` in its answers
        let (encodings, registered) = try await register(Self.channelIDs, through: BodyEncodingRecorder(answers: .asTheServerDoes))

        // Then the first chunk, before the hub had said anything, went as it was, and the others
        // gzipped; the hub inflated them and holds every channel
        #expect(encodings == [nil, "gzip", "gzip"])
        #expect(registered == Set(Self.channelIDs))
    }

    @Test func aServerThatDoesNotSayItTakesGzipGetsBodiesAsTheyAre() async throws {
        let (encodings, registered) = try await register(Self.channelIDs, through: BodyEncodingRecorder(answers: .withoutAcceptEncoding))
        #expect(encodings == [nil, nil, nil])
        #expect(registered == Set(Self.channelIDs))
    }

    @Test func a415ToAGzippedBodyIsSentAgainAsItIsAndRemembered() async throws {
        // Given a hub behind a proxy that says the hub takes gzip but refuses gzipped bodies with 415
        let (encodings, registered) = try await register(Self.channelIDs, through: BodyEncodingRecorder(answers: .refusingGzippedBodies))

        // Then the second chunk was gzipped, refused and sent again as it was, and the third went
        // as it was; every channel is registered
        #expect(encodings == [nil, "gzip", nil, nil])
        #expect(registered == Set(Self.channelIDs))
    }

    @Test func aSmallBodyGoesAsItIsEvenToAServerThatTakesGzip() async throws {
        let (encodings, _) = try await register(Array(Self.channelIDs.prefix(20)) + Array(Self.channelIDs.prefix(20)), chunk: 20,
                                                through: BodyEncodingRecorder(answers: .asTheServerDoes))
        #expect(encodings == [nil, nil])
    }

    /// Registers `channelIDs`, `chunk` at a time, with a new ``HubClient`` at a real hub behind
    /// `recorder`; returns the `Content-Encoding` of each register request as the hub received
    /// it, and the channels it holds.
    private func register(_ channelIDs: [String], chunk: Int = HubAPI.maxRegisterChannelIDs, through recorder: BodyEncodingRecorder) async throws -> ([String?], Set<String>) {
        let directory = TemporaryDirectory("metube-request-gzip")
        defer { directory.remove() }
        let repository = try SQLiteHubRepository(path: directory.path("hub.sqlite"))
        let hub = try await LiveHub.start(router: buildRouter(hubRepository: repository, firstMiddleware: recorder), repository: repository)
        defer { hub.stop() }
        var client = HubClient(baseURL: hub.url)
        client.retryPolicy = .none
        for part in channelIDs.chunked(chunk) { _ = try await client.register(Array(part)) }
        return (recorder.encodings, Set(try await repository.registeredChannelIDs()))
    }
}

/// Notes the `Content-Encoding` of every request body as it arrives, in front of the server's
/// own middleware, and plays the server or a proxy before it in what it answers.
private struct BodyEncodingRecorder: RouterMiddleware {
    typealias Context = BasicRequestContext

    enum Answers {
        /// The server's answers as they are.
        case asTheServerDoes
        /// The server's answers without their `Accept-Encoding`, as a server before RFC 7694's header.
        case withoutAcceptEncoding
        /// 415 to a gzipped body, the server's answers otherwise.
        case refusingGzippedBodies
    }

    let answers: Answers
    private let log = Log()

    init(answers: Answers) { self.answers = answers }

    var encodings: [String?] { log.encodings.withLock { $0 } }

    private final class Log: Sendable {
        let encodings = Mutex<[String?]>([])
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        let encoding = request.headers[.contentEncoding]
        log.encodings.withLock { $0.append(encoding) }
        if answers == .refusingGzippedBodies, encoding != nil {
            return Response(status: .unsupportedMediaType, headers: [.acceptEncoding: "identity"])
        }
        var response = try await next(request, context)
        if answers == .withoutAcceptEncoding { response.headers[.acceptEncoding] = nil }
        return response
    }
}
