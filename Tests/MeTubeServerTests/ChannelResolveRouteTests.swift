import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import MeTubeCore
import MeTubeDemo
import MeTubeFeeds
@testable import MeTubeServer
import TestSupport
import Testing

/// `POST /api/channels/resolve` on a live server: links resolved once for the household through
/// the Data API stub or the stand-in yt-dlp and answered from the cache afterwards (SQLite and
/// PostgreSQL), and what bad input, a spent quota, a missing yt-dlp and a spent user budget give.
@Suite("hub: resolving links", .serialized)
struct ChannelResolveRouteTests {
    typealias Support = HubTestSupport
    static let veritasium = "UCHnyfMqiRRG1u-2MsSQLbXA"
    static let rick = "UCuAXFkgsw1L7xaCfnd5JJOw"
    static let luke = "UC2eYFnH61tmytImy1mTYvhA"

    /// A store of `storage` with the mark-sync users `names`, and their tokens.
    static func store(_ storage: PushStorage, users names: [String] = ["alice"]) async throws -> (PushStore, [String]) {
        let store = try await storage.makeStore()
        let repository: any MarkSyncRepository = switch store.target {
        case .sqlite(let database): SQLiteMarkSyncRepository(database: database)
        case .postgres(let url): PostgresMarkSyncRepository(database: try await PostgresServerDatabase.forTests(url: url, poolSize: 1))
        }
        var tokens: [String] = []
        for name in names { tokens.append(try await MarkSyncService(repository: repository).addUser(name: name)) }
        return (store, tokens)
    }

    /// A server resolving through the Data API at `stub`, polling nothing.
    static func configuration(stub: YouTubeStub?, ytDLP: String = "/nonexistent/yt-dlp") -> ServerConfiguration {
        var configuration = ServerConfiguration(pollInterval: nil)
        configuration.youTubeAPI = stub.map { YouTubeAPIConfiguration(key: "test-key", baseURL: $0.url) }
        configuration.catalog = CatalogConfiguration(ytDLP: ytDLP)
        return configuration
    }

    /// `links` posted with `token`: the status and the answer's results (none unless 200).
    static func resolve(_ client: any TestClientProtocol, _ links: [String], token: String?) async throws -> (HTTPResponse.Status, [HubResolveResult]) {
        try await post(client, body: try Support.json(HubResolveRequest(links: links)), token: token)
    }

    static func post(_ client: any TestClientProtocol, body: ByteBuffer, token: String?) async throws -> (HTTPResponse.Status, [HubResolveResult]) {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: HubAPI.resolvePath, method: .post, headers: headers, body: body) { response in
            (response.status, response.status == .ok ? try Support.decode(HubResolveResponse.self, response.body).results : [])
        }
    }

    /// The lookups the stub received.
    static func lookups(_ stub: YouTubeStub) -> Int {
        stub.requests.filter { $0.path == "/channels" || $0.path == "/videos" }.count
    }

    @Test(arguments: PushStorage.allCases)
    func aHandleIsLookedUpOnceForTheHouseholdAndIDsCostNothing(storage: PushStorage) async throws {
        // Given a hub with a Data API key whose stub knows a handle and a video, and two users
        let stub = await YouTubeStub.start(override: YouTubeStub.resolving(handles: ["veritasium": Self.veritasium], videos: ["dQw4w9WgXcQ": Self.rick]))
        defer { stub.stop() }
        let (store, tokens) = try await Self.store(storage, users: ["alice", "bob"])
        try await store.withLiveServer(Self.configuration(stub: stub)) { client in
            // When one user resolves a handle, a video link, an id, an unknown handle and a link that names no channel
            let links = ["https://m.youtube.com/@Veritasium?si=abc", "https://youtu.be/dQw4w9WgXcQ?si=x", Self.luke, "@nobody_here", "https://example.com/x"]
            let (status, first) = try await Self.resolve(client, links, token: tokens[0])

            // Then each is answered in order, and only the three lookups reached YouTube
            #expect(status == .ok)
            #expect(first.map(\.channelID) == [Self.veritasium, Self.rick, Self.luke, nil, nil])
            #expect(first.map(\.code) == [nil, nil, nil, .notFound, .invalid])
            #expect(first[3].error == "@nobody_here does not exist on YouTube")
            #expect(first.map(\.link) == links)
            #expect(Self.lookups(stub) == 3)

            // And when the other user sends the same handle (another case and form), video and unknown handle
            let (_, second) = try await Self.resolve(client, ["@veritasium", "https://www.youtube.com/watch?v=dQw4w9WgXcQ", "@Nobody_Here", Self.luke], token: tokens[1])

            // Then they come from the cache: no request reaches YouTube
            #expect(second.map(\.channelID) == [Self.veritasium, Self.rick, nil, Self.luke])
            #expect(second[2].code == .notFound)
            #expect(Self.lookups(stub) == 3)
        }
    }

    @Test func badInputIsRefusedAndNeverReachesYouTube() async throws {
        let stub = await YouTubeStub.start(override: YouTubeStub.resolving(handles: ["veritasium": Self.veritasium]))
        defer { stub.stop() }
        let (store, tokens) = try await Self.store(.sqlite)
        try await store.withLiveServer(Self.configuration(stub: stub)) { client in
            let token = tokens[0]
            // No token, a wrong one, another scheme: 401
            #expect(try await Self.resolve(client, ["@veritasium"], token: nil).0 == .unauthorized)
            #expect(try await Self.resolve(client, ["@veritasium"], token: String(repeating: "0", count: 64)).0 == .unauthorized)
            #expect(try await Self.resolve(client, ["@veritasium"], token: String(repeating: "x", count: 10_000)).0 == .unauthorized)
            // Too many links, an oversize one, garbage, wrong types, none: 400
            let tooMany = (0...HubAPI.maxResolveLinks).map { "@handle\($0)" }
            #expect(try await Self.resolve(client, tooMany, token: token).0 == .badRequest)
            #expect(try await Self.resolve(client, ["@veritasium", String(repeating: "a", count: HubAPI.maxResolveLinkBytes + 1)], token: token).0 == .badRequest)
            for body in ["nope", "[]", "{\"links\":\"@veritasium\"}", "{\"links\":[1]}", "{\"links\":[]}", "{}", String(repeating: "[", count: 100)] {
                #expect(try await Self.post(client, body: ByteBuffer(string: body), token: token).0 == .badRequest, "\(body.prefix(20))")
            }
            // Control characters, other sites and feed pages are per-link failures
            let (status, results) = try await Self.resolve(client, ["@ve\u{0}ritasium", "https://evil.example/@veritasium", "https://youtube.com/feed/subscriptions", "\u{1b}[2J"], token: token)
            #expect(status == .ok)
            #expect(results.allSatisfy { $0.code == .invalid && $0.channelID == nil })
            #expect(Self.lookups(stub) == 0)
        }
    }

    @Test func aSpentQuotaIsAnsweredPerLinkAndNoMoreLookupsStartThatDay() async throws {
        // Given a Data API whose quota is spent
        let stub = await YouTubeStub.start(override: YouTubeStub.resolving(handles: ["veritasium": Self.veritasium], quotaSpent: { true }))
        defer { stub.stop() }
        let (store, tokens) = try await Self.store(.sqlite)
        try await store.withLiveServer(Self.configuration(stub: stub)) { client in
            // When a handle is resolved, then another handle and an id
            let (_, first) = try await Self.resolve(client, ["@veritasium"], token: tokens[0])
            let (_, second) = try await Self.resolve(client, ["@another_one", Self.luke], token: tokens[0])

            // Then the handles are quotaExceeded, the id is answered, and only the first lookup reached YouTube
            #expect(first.first?.code == .quotaExceeded)
            #expect(first.first?.error?.contains("quota") == true)
            #expect(second.map(\.code) == [.quotaExceeded, nil])
            #expect(second.last?.channelID == Self.luke)
            #expect(Self.lookups(stub) == 1)
        }
    }

    @Test func withoutAKeyYTDLPResolvesAndAMissingOneIsNamedPerLink() async throws {
        // Given a hub without a key whose yt-dlp (the stand-in) knows a handle
        let standIn = try YTDLPStandIn()
        defer { standIn.remove() }
        try standIn.setLinks([ChannelLink.handle("veritasium").url: Self.veritasium])
        let (store, tokens) = try await Self.store(.sqlite)
        try await store.withLiveServer(Self.configuration(stub: nil, ytDLP: standIn.executable.path)) { client in
            // When the handle is resolved twice
            let (_, first) = try await Self.resolve(client, ["@Veritasium"], token: tokens[0])
            let (_, again) = try await Self.resolve(client, ["youtube.com/@veritasium"], token: tokens[0])
            // Then yt-dlp was run once, asked for the channel id only
            #expect(first.first?.channelID == Self.veritasium)
            #expect(again.first?.channelID == Self.veritasium)
            #expect(standIn.calls().count == 1)
            #expect(standIn.calls().first?.contains("--playlist-items") == true)
        }
        let (missing, missingTokens) = try await Self.store(.sqlite)
        try await missing.withLiveServer(Self.configuration(stub: nil, ytDLP: "/nonexistent/yt-dlp")) { client in
            // And given no yt-dlp at all, a handle is unavailable with a line naming it
            let (_, results) = try await Self.resolve(client, ["@veritasium", Self.luke], token: missingTokens[0])
            #expect(results.first?.code == .unavailable)
            #expect(results.first?.error?.contains("yt-dlp not found: /nonexistent/yt-dlp") == true)
            #expect(results.last?.channelID == Self.luke)
        }
    }

    @Test func eachUserHasTheirOwnHourOfLookupsWhateverTheirAddress() async throws {
        // Given a hub allowing 2 lookups an hour per user, and two users on one address
        let handles = Dictionary(uniqueKeysWithValues: (1...4).map { ("handle\($0)", DemoCatalog.channelID($0)) })
        let stub = await YouTubeStub.start(override: YouTubeStub.resolving(handles: handles))
        defer { stub.stop() }
        let (store, tokens) = try await Self.store(.sqlite, users: ["alice", "bob"])
        var configuration = Self.configuration(stub: stub)
        configuration.linkLookupsPerHour = 2
        try await store.withLiveServer(configuration) { client in
            // When the first user asks for three handles and an id
            let (_, alice) = try await Self.resolve(client, ["@handle1", "@handle2", "@handle3", Self.luke], token: tokens[0])
            // Then two are looked up, the third is throttled, the id is answered
            #expect(alice.map(\.code) == [nil, nil, .throttled, nil])
            #expect(alice[2].error?.contains("your 2 lookups of this hour are spent") == true)
            // And the other user, from the same address, still has their own two; the first's answers are free to them
            let (_, bob) = try await Self.resolve(client, ["@handle3", "@handle4", "@handle1"], token: tokens[1])
            #expect(bob.map(\.channelID) == [DemoCatalog.channelID(3), DemoCatalog.channelID(4), DemoCatalog.channelID(1)])
            #expect(Self.lookups(stub) == 4)
        }
    }

    @Test(arguments: PushStorage.allCases)
    func aLookupOutlastingTheRequestIsPendingThenAnsweredWithoutAnotherLookup(storage: PushStorage) async throws {
        // Given a hub without a key whose yt-dlp (the stand-in) knows a handle but waits at a closed
        // gate before it answers, and requests that wait 1 s for lookups
        let standIn = try YTDLPStandIn()
        defer { standIn.remove() }
        try standIn.setLinks([ChannelLink.handle("veritasium").url: Self.veritasium])
        let gate = try standIn.closedGate()
        defer { gate.close() }
        let (store, tokens) = try await Self.store(storage)
        var configuration = Self.configuration(stub: nil, ytDLP: standIn.executable.path)
        configuration.connectionLimits.handlerDeadline = .seconds(3)
        try await store.withLiveServer(configuration) { client in
            // When the handle is resolved with an id
            let (status, first) = try await Self.resolve(client, ["@veritasium", Self.luke], token: tokens[0])

            // Then the handle is pending, to be sent again, and the id is answered
            #expect(status == .ok)
            #expect(first.map(\.code) == [.pending, nil])
            #expect(first.first?.error == "@veritasium is still being looked up; send it again")
            #expect(first.last?.channelID == Self.luke)

            // And when the lookup is let through and the handle is sent again, in another form
            try gate.letOneThrough()
            let (_, again) = try await Self.resolve(client, ["https://www.youtube.com/@Veritasium"], token: tokens[0])

            // Then it is resolved by the first lookup: yt-dlp ran once
            #expect(again.map(\.channelID) == [Self.veritasium])
            #expect(standIn.calls().count == 1)
        }
        // And a server started afresh on the same store answers it from the cache
        try await store.withLiveServer(configuration) { client in
            let (_, cached) = try await Self.resolve(client, ["@veritasium"], token: tokens[0])
            #expect(cached.map(\.channelID) == [Self.veritasium])
            #expect(standIn.calls().count == 1)
        }
    }
}
