import Crypto
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import MeTubeAPI
import NIOCore
import Synchronization
import TestSupport
import Testing
@testable import MeTubeServer

/// A loopback WebSub hub: its `POST /subscribe` records subscription requests as a real hub
/// receives them, and the test then plays the hub's side of each flow against the callback.
final class LoopbackWebSubHub: Sendable {
    /// One subscription request, as posted to the hub.
    struct SubscriptionRequest: Sendable {
        let fields: [String: String]
        /// When the hub received it.
        var receivedAt = Date()
        var callback: String { fields["hub.callback"] ?? "" }
        var topic: String { fields["hub.topic"] ?? "" }
        var secret: String { fields["hub.secret"] ?? "" }
    }

    let requests: AsyncStream<SubscriptionRequest>
    private let continuation: AsyncStream<SubscriptionRequest>.Continuation
    /// The status the hub answers subscription requests with.
    let answer = Mutex<HTTPResponse.Status>(.accepted)
    private let received = Mutex<[SubscriptionRequest]>([])

    /// Every request received so far, in order.
    var all: [SubscriptionRequest] { received.withLock { $0 } }

    init() {
        (requests, continuation) = AsyncStream.makeStream(of: SubscriptionRequest.self)
    }

    /// The hub's router: `POST /subscribe` takes a form-encoded request and answers 202.
    var router: Router<BasicRequestContext> {
        let router = Router()
        let continuation = continuation
        router.post("/subscribe") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 64 * 1024)
            var components = URLComponents()
            components.percentEncodedQuery = String(buffer: body)
            var fields: [String: String] = [:]
            for item in components.queryItems ?? [] { fields[item.name] = item.value ?? "" }
            guard request.headers[.contentType] == "application/x-www-form-urlencoded" else { return Response(status: .badRequest) }
            let status = self.answer.withLock { $0 }
            self.received.withLock { $0.append(SubscriptionRequest(fields: fields)) }
            continuation.yield(SubscriptionRequest(fields: fields))
            return Response(status: status)
        }
        return router
    }

    /// The path and query of the hub's verification of intent for `request`, as a hub calls the
    /// callback (the public URL's prefix is the server's, as behind a reverse proxy).
    static func verificationURI(_ request: SubscriptionRequest, mode: String = "subscribe", topic: String? = nil, challenge: String, leaseSeconds: Int) -> String {
        let fields = [("hub.mode", mode), ("hub.topic", topic ?? request.topic), ("hub.challenge", challenge), ("hub.lease_seconds", String(leaseSeconds))]
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return path(of: request.callback) + "?" + fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: unreserved)!)" }.joined(separator: "&")
    }

    /// The callback's path on the server: `callback` less the public URL.
    static func path(of callback: String) -> String {
        String(callback.dropFirst(WebSubTests.publicURL.count))
    }

    /// The `sha1=HEX` signature a hub sends for `body` under `secret`.
    static func signature(_ body: Data, secret: String) -> String {
        WebSubHubStub.signature(body, secret: secret)
    }
}

@Suite(.timeLimit(.minutes(1))) struct WebSubTests {
    typealias Support = HubTestSupport

    static let publicURL = "https://metube.example.org/hub"
    /// The channel and video of the real push fixture.
    static let channel = "UC7d1wZsLdg9pcU5JxaHhNJw"
    static let pushedVideo = "KtMyGttbyq0"

    static let fixtureFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("MeTubeFeedsTests/Fixtures/youtube_websub")

    /// A fixture with its `CHANNEL_ID` and `VIDEO_ID` placeholders filled in.
    static func fixture(_ name: String, video: String = pushedVideo) throws -> Data {
        let text = try String(contentsOf: fixtureFolder.appendingPathComponent(name), encoding: .utf8)
        return Data(text.replacingOccurrences(of: "CHANNEL_ID", with: channel).replacingOccurrences(of: "VIDEO_ID", with: video).utf8)
    }

    /// Runs `body` against a live server over `storage` with WebSub on (polling off) and a
    /// loopback hub, after registering the fixture channel and receiving its subscription request;
    /// `body` reads the stored subscriptions through `subscriptions`.
    func withSubscribedServer(
        _ storage: PushStorage, leaseSeconds: Int = 10 * 86_400, hubAnswer: HTTPResponse.Status = .accepted, verificationTimeout: Duration = .seconds(3600),
        _ body: @escaping @Sendable (_ client: any TestClientProtocol, _ request: LoopbackWebSubHub.SubscriptionRequest, _ hub: LoopbackWebSubHub,
                           _ iterator: inout AsyncStream<LoopbackWebSubHub.SubscriptionRequest>.Iterator, _ log: LogCapture, _ subscriptions: any WebSubRepository) async throws -> Void
    ) async throws {
        let hub = LoopbackWebSubHub()
        hub.answer.withLock { $0 = hubAnswer }
        let (hubService, hubURL) = await BackgroundService.serve(hub.router, label: "websub-hub")
        defer { hubService.stop() }
        let log = LogCapture()
        let store = try await storage.makeStore()
        var configuration = ServerConfiguration(pollInterval: nil, logger: log.logger)
        configuration.webSub = WebSubConfiguration(publicURL: Self.publicURL + "/", hubURL: hubURL + "/subscribe", requestedLeaseSeconds: leaseSeconds, verificationTimeout: verificationTimeout)
        try await store.withLiveServer(configuration) { client in
            try await client.execute(uri: HubAPI.registerPath, method: .post, body: try Support.json(HubRegisterRequest(channelIDs: [Self.channel])))
            var iterator = hub.requests.makeAsyncIterator()
            let request = try #require(await iterator.next())
            try await body(client, request, hub, &iterator, log, store.subscriptions)
        }
    }

    /// Verifies `request` as the hub does; returns the status and body.
    static func verify(_ client: any TestClientProtocol, _ request: LoopbackWebSubHub.SubscriptionRequest, mode: String = "subscribe",
                       topic: String? = nil, challenge: String, leaseSeconds: Int) async throws -> (HTTPResponse.Status, String) {
        let uri = LoopbackWebSubHub.verificationURI(request, mode: mode, topic: topic, challenge: challenge, leaseSeconds: leaseSeconds)
        return try await client.execute(uri: uri, method: .get) { ($0.status, String(buffer: $0.body)) }
    }

    /// Posts `body` to the callback of `request` as a notification signed with `signature`.
    static func deliver(_ client: any TestClientProtocol, _ request: LoopbackWebSubHub.SubscriptionRequest, _ body: Data, signature: String?) async throws -> HTTPResponse.Status {
        var headers: HTTPFields = [.contentType: "application/atom+xml"]
        if let signature { headers[HTTPField.Name("X-Hub-Signature")!] = signature }
        return try await client.execute(
            uri: LoopbackWebSubHub.path(of: request.callback), method: .post, headers: headers, body: ByteBuffer(bytes: body)) { $0.status }
    }

    /// The ids of every video the hub serves.
    static func videoIDs(_ client: any TestClientProtocol) async throws -> [String] {
        try await client.execute(uri: HubAPI.videoQueryPath, method: .post, body: try Support.json(HubVideoQuery(afterSeq: 0, limit: 500))) {
            try Support.decode(HubVideoPage.self, $0.body)
        }.videos.map(\.videoID)
    }

    @Test(arguments: PushStorage.allCases)
    func aRegisteredChannelIsSubscribedAndOnlyItsPendingSubscriptionIsVerified(storage: PushStorage) async throws {
        try await withSubscribedServer(storage) { client, request, _, _, _, subscriptions in
            // Given the subscription request the hub received for the registered channel
            #expect(request.fields["hub.mode"] == "subscribe")
            #expect(request.topic == "https://www.youtube.com/xml/feeds/videos.xml?channel_id=\(Self.channel)")
            #expect(request.callback == "\(Self.publicURL)/websub/\(Self.channel)")
            #expect(request.fields["hub.lease_seconds"] == "864000")
            #expect(request.secret.count == 64 && request.secret.allSatisfy(\.isHexDigit))

            // When the hub verifies with a wrong topic, a mode nobody asked for, and for an unknown channel
            let wrongTopic = try await Self.verify(client, request, topic: WebSubConfiguration.topic(for: Support.channelID(9)), challenge: "c1", leaseSeconds: 3600)
            let unsubscribe = try await Self.verify(client, request, mode: "unsubscribe", challenge: "c2", leaseSeconds: 3600)
            let other = LoopbackWebSubHub.SubscriptionRequest(fields: [
                "hub.callback": "\(Self.publicURL)/websub/\(Support.channelID(9))", "hub.topic": WebSubConfiguration.topic(for: Support.channelID(9)),
            ])
            let unknown = try await Self.verify(client, other, challenge: "c3", leaseSeconds: 3600)
            // Then each is refused with 404 and no challenge
            #expect(wrongTopic.0 == .notFound && !wrongTopic.1.contains("c1"))
            #expect(unsubscribe.0 == .notFound)
            #expect(unknown.0 == .notFound)

            // When it verifies the pending subscription properly
            let verified = try await Self.verify(client, request, challenge: "challenge-1234_x", leaseSeconds: 3600)
            // Then the challenge is echoed and the lease stored as live
            #expect(verified.0 == .ok)
            #expect(verified.1 == "challenge-1234_x")
            let stored = try #require(try await subscriptions.subscription(channelID: Self.channel))
            #expect(stored.state == .active)
            #expect(stored.secret == Data(request.secret.utf8))
            let remaining = Double(try #require(stored.leaseExpiresAt)) / 1000 - Date().timeIntervalSince1970
            #expect((3500...3601).contains(remaining))

            // And a second verification, with no subscription request pending, is refused
            #expect(try await Self.verify(client, request, challenge: "again", leaseSeconds: 3600).0 == .notFound)
        }
    }

    @Test(arguments: PushStorage.allCases)
    func signedDeliveriesAreIngestedAndDeletedEntriesMarkedGoneWhileBadSignaturesAreDroppedAndLogged(storage: PushStorage) async throws {
        try await withSubscribedServer(storage) { client, request, _, _, log, _ in
            #expect(try await Self.verify(client, request, challenge: "ok", leaseSeconds: 3600).0 == .ok)

            // When the hub delivers the real push with its valid signature
            let push = try Self.fixture("gearplug_push_notification_real_2017.xml")
            let status = try await Self.deliver(client, request, push, signature: LoopbackWebSubHub.signature(push, secret: request.secret))
            // Then it is acknowledged and the video is in videos/query at once
            #expect(status.code / 100 == 2)
            #expect(try await Self.videoIDs(client) == [Self.pushedVideo])

            // When another upload arrives signed with the wrong secret, and unsigned
            let other = try Self.fixture("google_docs_push_notification_example.xml", video: "AAAAAAAAAAA")
            let forged = try await Self.deliver(client, request, other, signature: LoopbackWebSubHub.signature(other, secret: "not-the-secret"))
            let unsigned = try await Self.deliver(client, request, other, signature: nil)
            // Then both are acknowledged as WebSub asks, nothing is ingested, and the drops are logged
            #expect(forged.code / 100 == 2 && unsigned.code / 100 == 2)
            #expect(try await Self.videoIDs(client) == [Self.pushedVideo])
            let drops = log.entries.filter { $0.level == .warning && $0.message.contains("bad signature") }
            #expect(drops.count == 2)
            #expect(drops.allSatisfy { $0.metadata["channel"] == Self.channel })

            // When the hub announces the pushed video's deletion
            let before = try await Self.rows(client)
            let deletion = try Self.fixture("ytnoti_deleted_entry_tombstone_redacted_2024.xml")
            let deleted = try await Self.deliver(client, request, deletion, signature: LoopbackWebSubHub.signature(deletion, secret: request.secret))
            // Then the video is marked gone under a new seq, so a client that synced it learns it
            #expect(deleted.code / 100 == 2)
            let after = try await Self.rows(client)
            #expect(after.map(\.videoID) == [Self.pushedVideo])
            #expect(after.first?.availability == "gone")
            #expect(after.first!.seq > before.first!.seq)
            #expect(try await Self.rows(client, afterSeq: before.first!.seq).map(\.videoID) == [Self.pushedVideo])

            // And the same deletion again, or one for a video or channel the server never had, changes nothing
            let again = try await Self.deliver(client, request, deletion, signature: LoopbackWebSubHub.signature(deletion, secret: request.secret))
            #expect(again.code / 100 == 2)
            let unknownVideo = try Self.fixture("ytnoti_deleted_entry_tombstone_redacted_2024.xml", video: "ZZZZZZZZZZZ")
            #expect(try await Self.deliver(client, request, unknownVideo, signature: LoopbackWebSubHub.signature(unknownVideo, secret: request.secret)).code / 100 == 2)
            #expect(try await Self.rows(client).map(\.seq) == after.map(\.seq))

            // And a delivery for a channel without a subscription is not found
            let stranger = LoopbackWebSubHub.SubscriptionRequest(fields: ["hub.callback": "\(Self.publicURL)/websub/\(Support.channelID(9))"])
            #expect(try await Self.deliver(client, stranger, push, signature: LoopbackWebSubHub.signature(push, secret: request.secret)) == .notFound)
        }
    }

    /// The rows the hub serves after `afterSeq`.
    static func rows(_ client: any TestClientProtocol, afterSeq: Int64 = 0) async throws -> [HubVideo] {
        try await client.execute(uri: HubAPI.videoQueryPath, method: .post, body: try Support.json(HubVideoQuery(afterSeq: afterSeq, limit: 500))) {
            try Support.decode(HubVideoPage.self, $0.body)
        }.videos
    }

    /// Every video the hub serves, as (id, title, seq).
    static func videos(_ client: any TestClientProtocol) async throws -> [(id: String, title: String?, seq: Int64)] {
        try await client.execute(uri: HubAPI.videoQueryPath, method: .post, body: try Support.json(HubVideoQuery(afterSeq: 0, limit: 500))) {
            try Support.decode(HubVideoPage.self, $0.body)
        }.videos.map { ($0.videoID, $0.title, $0.seq) }
    }

    @Test(arguments: PushStorage.allCases)
    func anOlderPushChangesNothingAndAnOlderDeletionIsIgnored(storage: PushStorage) async throws {
        try await withSubscribedServer(storage) { client, request, _, _, log, _ in
            #expect(try await Self.verify(client, request, challenge: "ok", leaseSeconds: 3600).0 == .ok)
            let sign = { (body: Data) in LoopbackWebSubHub.signature(body, secret: request.secret) }
            // Given the real push (updated 2017-12-15), then a newer one retitling the video (2017-12-16)
            let first = try Self.fixture("gearplug_push_notification_real_2017.xml")
            let newer = Data(String(decoding: first, as: UTF8.self).replacingOccurrences(of: "<title>vid</title>", with: "<title>vid, retitled</title>")
                .replacingOccurrences(of: "2017-12-15T14:28:16", with: "2017-12-16T14:28:16").utf8)
            #expect(try await Self.deliver(client, request, first, signature: sign(first)).code / 100 == 2)
            #expect(try await Self.deliver(client, request, newer, signature: sign(newer)).code / 100 == 2)
            let current = try await Self.videos(client)
            #expect(current.map(\.title) == ["vid, retitled"])

            // When the hub replays the first push, validly signed
            let replayed = try await Self.deliver(client, request, first, signature: sign(first))

            // Then it is acknowledged, the title stays, and the video keeps its seq
            #expect(replayed.code / 100 == 2)
            let afterReplay = try await Self.videos(client)
            #expect(afterReplay.map(\.title) == ["vid, retitled"])
            #expect(afterReplay.map(\.seq) == current.map(\.seq))
            #expect(log.entries.contains { $0.message.contains("older than what is stored") })

            // When a deletion older than the video's last update arrives, Then the video stays
            let tombstone = try Self.fixture("ytnoti_deleted_entry_tombstone_redacted_2024.xml")
            let olderDeletion = Data(String(decoding: tombstone, as: UTF8.self).replacingOccurrences(of: "2024-09-09T22:34:19", with: "2017-12-15T20:00:00").utf8)
            #expect(try await Self.deliver(client, request, olderDeletion, signature: sign(olderDeletion)).code / 100 == 2)
            #expect(try await Self.videos(client).map(\.seq) == current.map(\.seq))

            // And a newer deletion marks it gone
            #expect(try await Self.deliver(client, request, tombstone, signature: sign(tombstone)).code / 100 == 2)
            #expect(try await Self.rows(client).map(\.availability) == ["gone"])
        }
    }

    @Test(arguments: PushStorage.allCases)
    func aPushDatedInTheFarFutureCountsAsNowSoTheNextRealPushIsTaken(storage: PushStorage) async throws {
        try await withSubscribedServer(storage) { client, request, _, _, _, _ in
            #expect(try await Self.verify(client, request, challenge: "ok", leaseSeconds: 3600).0 == .ok)
            let sign = { (body: Data) in LoopbackWebSubHub.signature(body, secret: request.secret) }
            let push = String(decoding: try Self.fixture("gearplug_push_notification_real_2017.xml"), as: UTF8.self)
            func dated(_ time: String, title: String) -> Data {
                Data(push.replacingOccurrences(of: "2017-12-15T14:28:16", with: time).replacingOccurrences(of: "<title>vid</title>", with: "<title>\(title)</title>").utf8)
            }
            // Given a validly signed push dated 2099
            let forged = dated("2099-01-01T00:00:00", title: "from 2099")
            #expect(try await Self.deliver(client, request, forged, signature: sign(forged)).code / 100 == 2)
            #expect(try await Self.videos(client).map(\.title) == ["from 2099"])

            // When the real push follows, dated two seconds later than now (within the hub's clock skew)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
            let real = dated(formatter.string(from: Date().addingTimeInterval(2)), title: "real")
            #expect(try await Self.deliver(client, request, real, signature: sign(real)).code / 100 == 2)

            // Then it is taken: the 2099 date counted as now, not as now plus the skew
            #expect(try await Self.videos(client).map(\.title) == ["real"])
        }
    }

    @Test(arguments: PushStorage.allCases)
    func aShortLeaseIsRenewedBeforeItExpiresWithTheSameSecret(storage: PushStorage) async throws {
        try await withSubscribedServer(storage) { client, request, _, iterator, _, subscriptions in
            // When the hub grants a lease of 5 seconds
            #expect(try await Self.verify(client, request, challenge: "short", leaseSeconds: 5).0 == .ok)

            // Then the server asks again, not before four fifths of it (as the server recorded the
            // request and the lease), for the same topic and callback, with the same secret
            let renewal = try #require(await iterator.next())
            let renewing = try #require(try await subscriptions.subscription(channelID: Self.channel))
            #expect(try #require(renewing.requestedAt) >= (try #require(renewing.leaseExpiresAt)) - 1_000)
            #expect(renewal.topic == request.topic)
            #expect(renewal.callback == request.callback)
            #expect(renewal.secret == request.secret)
            // And the renewal verifies like the first subscription, extending the lease
            #expect(try await Self.verify(client, renewal, challenge: "renewed", leaseSeconds: 7200).1 == "renewed")
            let stored = try #require(try await subscriptions.subscription(channelID: Self.channel))
            let expires = try #require(stored.leaseExpiresAt)
            #expect(expires - WebSubService.millisecondsNow() > 7_000_000)
            // And the new lease is due for renewal after four fifths of it, well before it ends
            // (the schedule, not how promptly a loaded machine keeps it)
            #expect(try await subscriptions.dueSubscriptions(now: expires - 1_440_001, limit: 10).isEmpty)
            #expect(try await subscriptions.dueSubscriptions(now: expires - 1_440_000, limit: 10).map(\.channelID) == [Self.channel])
        }
    }

    @Test(arguments: PushStorage.allCases)
    func aRefusedSubscribeRequestIsRetriedAfterABackoffAndADenialIsRecorded(storage: PushStorage) async throws {
        try await withSubscribedServer(storage, hubAnswer: .internalServerError) { client, request, _, _, log, subscriptions in
            // Given a hub that answered the subscribe request with 500

            // Then the failure is recorded with a retry a minute later and logged, and no verification is awaited
            let failed = try await eventually("the subscription never failed") { try await subscriptions.subscription(channelID: Self.channel).flatMap { $0.state == .failing ? $0 : nil } }
            #expect(failed.failures == 1 && failed.requestedAt == nil)
            // (The failure was recorded after the hub received the request: a minute after that is early.)
            let received = Int64(request.receivedAt.timeIntervalSince1970 * 1000)
            let due = try await subscriptions.dueSubscriptions(now: received + 59_000, limit: 10)
            #expect(due.isEmpty)
            #expect(try await subscriptions.dueSubscriptions(now: WebSubService.millisecondsNow() + 61_000, limit: 10).map(\.channelID) == [Self.channel])
            #expect(log.entries.contains { $0.level == .warning && $0.message == "WebSub subscribe request failed" && $0.metadata["reason"] == "HTTP 500" })
            #expect(try await Self.verify(client, request, challenge: "late", leaseSeconds: 3600).0 == .notFound)

            // When the hub reports the subscription denied
            let uri = LoopbackWebSubHub.path(of: request.callback) + "?hub.mode=denied&hub.topic="
                + request.topic.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&hub.reason=policy%0Ablocked"
            let status = try await client.execute(uri: uri, method: .get) { $0.status }

            // Then it is acknowledged, recorded, and logged on one line
            #expect(status.code / 100 == 2)
            #expect(try await subscriptions.subscription(channelID: Self.channel)?.state == .denied)
            #expect(log.entries.contains { $0.message.contains("denied") && $0.metadata["reason"] == "policy blocked" })
        }
    }

    @Test(arguments: PushStorage.allCases)
    func aRequestTheHubNeverVerifiesIsSentAgainWithAWarningAndALongerWait(storage: PushStorage) async throws {
        // (The timeout is the test's time to read the first request before it is sent again, and to
        // verify the repeated one while it is pending: long enough for a loaded machine.)
        let timeout: Int64 = 5_000
        try await withSubscribedServer(storage, verificationTimeout: .milliseconds(timeout)) { client, request, _, iterator, log, subscriptions in
            // When the hub never verifies the first request
            let first = try #require(try await subscriptions.subscription(channelID: Self.channel))
            #expect(first.failures == 0)

            // Then it is sent again after the verification timeout (as the server records its requests), with the same secret and a warning
            let again = try #require(await iterator.next())
            let stored = try await eventually("the failure was never stored") { try await subscriptions.subscription(channelID: Self.channel).flatMap { $0.failures == 1 ? $0 : nil } }
            let requestedAt = try #require(stored.requestedAt)
            #expect(requestedAt - (try #require(first.requestedAt)) >= timeout)
            #expect(again.secret == request.secret)
            #expect(log.entries.contains { $0.level == .warning && $0.message.contains("never verified") })
            // And the next attempt waits twice as long
            let due = try await subscriptions.dueSubscriptions(now: requestedAt + 2 * timeout - 1, limit: 10)
            #expect(due.isEmpty)
            // And the repeated request verifies as usual
            #expect(try await Self.verify(client, again, challenge: "at-last", leaseSeconds: 3600).1 == "at-last")
        }
    }

    @Test func channelsWithALiveLeaseArePolledOnlyAtTheLongerInterval() async throws {
        // Given two registered channels, one with a verified lease
        let database = try ServerDatabase()
        let hub = try SQLiteHubRepository(database: database)
        let pushed = Support.channelID(1), polled = Support.channelID(2)
        _ = try await hub.register(channelIDs: [pushed, polled])
        let subscriptions = SQLiteWebSubRepository(database: database)
        let now = WebSubService.millisecondsNow()
        try await subscriptions.recordRequested(channelID: pushed, secret: WebSubSignature.newSecret(), now: now, retryAt: now + 60_000)
        #expect(try await subscriptions.confirm(channelID: pushed, requestedSince: now - 1, leaseSeconds: 3600, now: now, renewAt: now + 2_880_000))
        let schedule = WebSubPollSchedule(subscriptions: subscriptions, pushedPollInterval: .seconds(3600), logger: Logger(label: "test"))

        // When two polling rounds ask which channels to poll
        let first = await schedule.channelsToPoll([pushed, polled])
        let second = await schedule.channelsToPoll([pushed, polled])

        // Then the pushed channel is polled once (the fallback) and then left to its longer interval
        #expect(first == [pushed, polled])
        #expect(second == [polled])
    }

    @Test func theFeedPollerLeavesPushedChannelsToTheLongerInterval() async throws {
        try await HubIngestionTests.feedServer().test(.live) { feedClient in
            // Given two fixture channels, one with a live lease, and a poller using the WebSub schedule
            let port = try #require(feedClient.port)
            let database = try ServerDatabase()
            let hub = try SQLiteHubRepository(database: database)
            let pushed = "UC9PBzalIcEQCsiIkq36PyUA", polled = "UCK8sQmJBp8GCxrOtXWBpyEA"
            _ = try await hub.register(channelIDs: [pushed, polled])
            let subscriptions = SQLiteWebSubRepository(database: database)
            let now = WebSubService.millisecondsNow()
            try await subscriptions.recordRequested(channelID: pushed, secret: WebSubSignature.newSecret(), now: now, retryAt: now + 60_000)
            #expect(try await subscriptions.confirm(channelID: pushed, requestedSince: now, leaseSeconds: 3600, now: now, renewAt: now + 2_880_000))
            let ingester = FeedIngester(
                repository: hub, feedURLTemplate: "http://127.0.0.1:\(port)/feeds/{channelId}", pollInterval: .seconds(3600), concurrency: 2,
                schedule: WebSubPollSchedule(subscriptions: subscriptions, pushedPollInterval: .seconds(3600), logger: Logger(label: "test")),
                logger: Logger(label: "test"))

            // When it polls twice
            let first = await ingester.poll()
            let second = await ingester.poll()

            // Then both are fetched once, and then only the channel without a lease (a 304) while the pushed one is deferred
            #expect(first.fetched == 2 && first.deferred == 0)
            #expect(second.notModified == 1 && second.deferred == 1 && second.fetched == 0)
        }
    }

    @Test func signaturesAreCheckedForEachMethodAndMalformedHeadersFail() {
        let secret = Data("s3cret".utf8)
        let body = Data("<feed/>".utf8)
        let sha1 = LoopbackWebSubHub.signature(body, secret: "s3cret")
        let sha256 = "sha256=" + HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: secret)).map { String(format: "%02X", $0) }.joined()
        #expect(WebSubSignature.isValid(sha1, body: body, secret: secret))
        #expect(WebSubSignature.isValid(sha256, body: body, secret: secret))
        #expect(!WebSubSignature.isValid(sha1, body: Data("<feed />".utf8), secret: secret))
        #expect(!WebSubSignature.isValid(sha1, body: body, secret: Data("other".utf8)))
        let hex = String(sha1.dropFirst(5))
        let malformed: [String?] = [nil, "", "sha1=", "sha1", "md5=" + hex, "sha1=zz" + String(hex.dropFirst(2)), String(sha1.dropLast(2)), sha1 + "00"]
        for header in malformed {
            #expect(!WebSubSignature.isValid(header, body: body, secret: secret), "\(header ?? "nil")")
        }
    }

    @Test func publicAndHubURLsAreChecked() {
        #expect(throws: Never.self) { try WebSubConfiguration(publicURL: "https://hub.example.org/metube/").validate() }
        for bad in ["", "hub.example.org", "ftp://hub.example.org", "https://", "https://user:pw@hub.example.org", "https://hub.example.org/#x",
                    "https://hub.example.org/?a=b", "https://hub.example.org/" + String(repeating: "a", count: 1100), "https://hub.example.org/a b"] {
            #expect(throws: ServerError.self, "\(bad)") { try WebSubConfiguration(publicURL: bad).validate() }
        }
        #expect(throws: ServerError.self) { try WebSubConfiguration(publicURL: "https://a.example", hubURL: "javascript:alert(1)").validate() }
    }
}
