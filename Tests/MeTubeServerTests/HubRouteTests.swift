import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import Testing
@testable import MeTubeServer

@Suite struct HubRouteTests {
    typealias Support = HubTestSupport

    @Test func rootHealthAndCORS() async throws {
        try await Support.application().test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("MeTube hub"))
            }
            try await client.execute(uri: "/health", method: .get) { response throws in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ok")
                #expect(response.headers[.accessControlAllowOrigin] == "*")
            }
        }
    }

    @Test(arguments: ["/api/videos/query", "/anything/at/all"])
    func optionsAnswers204WithCORS(path: String) async throws {
        try await Support.application().test(.router) { client in
            try await client.execute(uri: path, method: .options) { response throws in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                #expect(response.headers[.accessControlAllowHeaders] == "Content-Type, Authorization")
                #expect(response.headers[.accessControlAllowMethods] == "GET,POST,OPTIONS")
            }
        }
    }

    @Test(arguments: HubStorage.allCases)
    func registerTrimsDeduplicatesDropsImplausibleIDsAndCounts(storage: HubStorage) async throws {
        let one = Support.channelID(1)
        let two = Support.channelID(2)
        try await Support.application(storage.makeRepository()).test(.router) { client in
            // Given one channel already registered
            try await client.execute(uri: HubAPI.registerPath, method: .post, body: try Support.json(HubRegisterRequest(channelIDs: [one])))

            // When a list with padding, a duplicate, a short id and bad characters is registered
            let body = "{\"channelIds\":[\"  \(one) \",\"\(two)\",\"\(two)\",\"short\",\"UC bad id with spaces\",\"\(String(repeating: "x", count: 129))\"]}"
            try await client.execute(uri: HubAPI.registerPath, method: .post, body: Support.body(body)) { response throws in
                // Then only the two plausible ids count
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let answer = try Support.decode(HubRegisterResponse.self, response.body)
                #expect(answer == HubRegisterResponse(requested: 2, inserted: 1, alreadyPresent: 1, totalChannels: 2))
            }
            try await client.execute(uri: HubAPI.channelsPath, method: .post) { response throws in
                let list = try Support.decode(HubChannelList.self, response.body)
                #expect(list.channels.map(\.channelID) == [one, two])
                #expect(String(buffer: response.body).contains("\"title\":null"))
            }
        }
    }

    @Test(arguments: [
        ("not json", "invalid JSON"),
        ("{\"channelIds\":", "invalid JSON"),
        ("[\"UCxxxxxxxxxxxxxxxxxxxxxx\"]", "the body must be a JSON object, not an array"),
        ("{}", "channelIds must be a non-empty array of strings"),
        ("{\"channelIds\":[]}", "channelIds must be a non-empty array of strings"),
        ("{\"channelIds\":\"UCxxxxxxxxxxxxxxxxxxxxxx\"}", "channelIds must be an array of strings, not a string"),
        ("{\"channelIds\":[42]}", "channelIds[0] must be a string, not a number"),
        ("{\"channelIds\":[\"UCxxxxxxxxxxxxxxxxxxxxxx\",null]}", "channelIds[1] must be a string, not null"),
        ("{\"channelIds\":[\"bad\",\"also bad!\"]}", "no valid channel IDs"),
    ])
    func registerRejectsBadBodies(body: String, message: String) async throws {
        try await Support.application().test(.router) { client in
            try await client.execute(uri: HubAPI.registerPath, method: .post, body: Support.body(body)) { response throws in
                #expect(response.status == .badRequest)
                #expect(try Support.decode(HubErrorBody.self, response.body) == HubErrorBody(error: message))
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            }
        }
    }

    @Test func registerRefusesMoreThan500IDs() async throws {
        let ids = (0..<501).map(Support.channelID)
        try await Support.application().test(.router) { client in
            try await client.execute(uri: HubAPI.registerPath, method: .post, body: try Support.json(HubRegisterRequest(channelIDs: ids))) { response throws in
                #expect(response.status == .badRequest)
                #expect(try Support.decode(HubErrorBody.self, response.body).error == "channelIds has 501 entries; at most 500 are allowed")
            }
            try await client.execute(uri: HubAPI.registerPath, method: .post, body: try Support.json(HubRegisterRequest(channelIDs: Array(ids.prefix(500))))) { response throws in
                #expect(try Support.decode(HubRegisterResponse.self, response.body).inserted == 500)
            }
        }
    }

    @Test func anOversizedBodyAnswers413() async throws {
        let big = "{\"channelIds\":[\"" + String(repeating: "a", count: HubAPI.maxBodyBytes) + "\"]}"
        try await Support.application().test(.router) { client in
            for path in [HubAPI.registerPath, HubAPI.videoQueryPath] {
                try await client.execute(uri: path, method: .post, body: Support.body(big)) { response throws in
                    #expect(response.status == .contentTooLarge)
                    #expect(try Support.decode(HubErrorBody.self, response.body).error == "request body larger than 1048576 bytes")
                }
            }
        }
    }

    @Test(arguments: [
        ("{\"afterSeq\":-1}", "afterSeq must be a non-negative integer no larger than 9007199254740991"),
        ("{\"afterSeq\":9007199254740992}", "afterSeq must be a non-negative integer no larger than 9007199254740991"),
        ("{\"afterSeq\":1e300}", "afterSeq must be a non-negative integer no larger than 9007199254740991"),
        ("{\"afterSeq\":\"5\"}", "afterSeq must be a non-negative integer no larger than 9007199254740991"),
        ("{\"afterSeq\":1.5}", "afterSeq must be a non-negative integer no larger than 9007199254740991"),
        ("{\"limit\":0}", "limit must be an integer from 1 to 500"),
        ("{\"limit\":501}", "limit must be an integer from 1 to 500"),
        ("{\"limit\":true}", "limit must be an integer from 1 to 500"),
        ("{\"limit\":2.5}", "limit must be an integer from 1 to 500"),
        ("{\"channelIds\":{}}", "channelIds must be an array of strings, not an object"),
        ("{\"channelIds\":[\"UCxxxxxxxxxxxxxxxxxxxxxx\",7]}", "channelIds[1] must be a string, not a number"),
        ("{\"channelIds\":[\"nope\"]}", "no valid channel IDs"),
        ("\"hello\"", "the body must be a JSON object, not a string"),
        ("{\"limit\":", "invalid JSON"),
    ])
    func queryRejectsBadBodies(body: String, message: String) async throws {
        try await Support.application().test(.router) { client in
            try await client.execute(uri: HubAPI.videoQueryPath, method: .post, body: Support.body(body)) { response throws in
                #expect(response.status == .badRequest)
                #expect(try Support.decode(HubErrorBody.self, response.body) == HubErrorBody(error: message))
            }
        }
    }

    @Test func queryRefusesMoreThan300ChannelIDs() async throws {
        let ids = (0..<301).map(Support.channelID)
        try await Support.application().test(.router) { client in
            try await client.execute(uri: HubAPI.videoQueryPath, method: .post, body: try Support.json(HubVideoQuery(channelIDs: ids))) { response throws in
                #expect(response.status == .badRequest)
                #expect(try Support.decode(HubErrorBody.self, response.body).error == "channelIds has 301 entries; at most 300 are allowed")
            }
        }
    }

    @Test(arguments: HubStorage.allCases)
    func queryPagesInAscendingSeqOrderAndFilters(storage: HubStorage) async throws {
        // Given two channels with 5 videos each
        let repository = try await storage.makeRepository()
        let (one, two) = (Support.channelID(1), Support.channelID(2))
        _ = try await repository.register(channelIDs: [one, two])
        _ = try await repository.ingest(FeedIngestion(channelID: one, channelTitle: "One", videos: (0..<5).map { Support.video($0, channel: one) }))
        _ = try await repository.ingest(FeedIngestion(channelID: two, channelTitle: "Two", videos: (5..<10).map { Support.video($0, channel: two, title: "quote \" back\\slash\nnewline \u{1} 日本 🎉") }))

        try await Support.application(repository).test(.router) { client in
            // When all pages are fetched with limit 4 following maxSeqReturned
            var seqs: [Int64] = []
            var afterSeq: Int64 = 0
            while true {
                let page = try await client.execute(uri: HubAPI.videoQueryPath, method: .post, body: try Support.json(HubVideoQuery(afterSeq: afterSeq, limit: 4))) { response throws in
                    try Support.decode(HubVideoPage.self, response.body)
                }
                if page.videos.isEmpty {
                    // Then an empty page echoes afterSeq
                    #expect(page.maxSeqReturned == afterSeq)
                    break
                }
                seqs += page.videos.map(\.seq)
                afterSeq = page.maxSeqReturned
            }
            // Then every video came exactly once, in ascending seq order
            #expect(seqs == Array(1...10))

            // And a channel filter and the defaults work; titles with escapes survive the fast
            // writer, once ingest has screened their controls (a line break is a space, U+0001 is gone)
            let filtered = try await client.execute(uri: HubAPI.videoQueryPath, method: .post, body: Support.body("{\"channelIds\":[\" \(two) \"],\"afterSeq\":null}")) { response throws in
                try Support.decode(HubVideoPage.self, response.body)
            }
            #expect(filtered.videos.map(\.seq) == Array(6...10))
            #expect(filtered.videos.first?.title == "quote \" back\\slash newline  日本 🎉")
            #expect(filtered.videos.first?.publishedAt == "2025-01-01T00:05:00Z")
            #expect(filtered.videos.first?.url == "https://www.youtube.com/watch?v=\(filtered.videos[0].videoID)")
            let everything = try await client.execute(uri: HubAPI.videoQueryPath, method: .post) { response throws in
                try Support.decode(HubVideoPage.self, response.body)
            }
            #expect(everything.videos.count == 10)
            #expect(everything.maxSeqReturned == 10)
        }
    }
}

/// A repository whose every call fails, to inject storage faults.
struct FailingHubRepository: HubRepository {
    struct Failure: Error {}
    /// What every call throws.
    var failure: any Error & Sendable = Failure()
    func register(channelIDs: [String]) async throws -> HubRegisterResponse { throw failure }
    func channels(after channelID: String?, limit: Int) async throws -> [HubChannel] { throw failure }
    func registeredChannelIDs() async throws -> [String] { throw failure }
    func videos(matching query: HubVideoSelection) async throws -> HubVideoPage { throw failure }
    func ingest(_ ingestion: FeedIngestion, planning plan: @escaping @Sendable ([String: StoredVideoDetails]) -> FeedIngestionPlan) async throws -> FeedIngestionOutcome {
        throw failure
    }
    func recordFetches(_ records: [ChannelFetchRecord]) async throws { throw failure }
}
