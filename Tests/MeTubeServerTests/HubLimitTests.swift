import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import NIOCore
import Testing
@testable import MeTubeServer

/// The hub's answers stay bounded however much was registered, and registration without an
/// account is limited per client address (issue 13, 13.14).
@Suite struct HubLimitTests {
    typealias Support = HubTestSupport

    @Test(arguments: HubStorage.allCases)
    func channelsAreAnsweredInPagesThatAClientFollows(storage: HubStorage) async throws {
        // Given a hub with 2,500 registered channels
        let repository = try await storage.makeRepository()
        for start in stride(from: 0, to: 2_500, by: 500) {
            _ = try await repository.register(channelIDs: (start..<start + 500).map(Support.channelID))
        }
        try await Support.application(repository).test(.router) { client in
            // When a client asks without a body, then follows nextAfterChannelId
            var pages: [HubChannelList] = []
            var request: HubChannelsRequest?
            repeat {
                let body = try request.map { try Support.json($0) }
                let response = try await client.execute(uri: HubAPI.channelsPath, method: .post, body: body)
                pages.append(try Support.decode(HubChannelList.self, response.body))
                request = pages.last?.nextAfterChannelID.map { HubChannelsRequest(afterChannelID: $0) }
            } while request != nil && pages.count < 10

            // Then it gets pages of 1,000, 1,000 and 500 holding every channel once, in id order
            #expect(pages.map(\.channels.count) == [1_000, 1_000, 500])
            let ids = pages.flatMap(\.channels).map(\.channelID)
            #expect(ids == (0..<2_500).map(Support.channelID).sorted())

            // And a page size outside 1…5000 is refused
            let tooBig = try await client.execute(uri: HubAPI.channelsPath, method: .post, body: try Support.json(HubChannelsRequest(limit: 5_001)))
            #expect(tooBig.status == .badRequest)
        }
    }

    @Test func oneAddressMayRegisterAboutTwoThousandNewChannelsAnHour() async throws {
        try await Support.application().test(.router) { client in
            // Given a client that has registered 2,000 new channels
            for start in stride(from: 0, to: 2_000, by: 500) {
                let body = try Support.json(HubRegisterRequest(channelIDs: (start..<start + 500).map(Support.channelID)))
                let response = try await client.execute(uri: HubAPI.registerPath, method: .post, body: body)
                #expect(response.status == .ok)
            }

            // When it registers more
            let body = try Support.json(HubRegisterRequest(channelIDs: [Support.channelID(90_000)]))
            let response = try await client.execute(uri: HubAPI.registerPath, method: .post, body: body)

            // Then it is told to come back later, with Retry-After in the hour
            #expect(response.status == .tooManyRequests)
            let retryAfter = try #require(response.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...3_600).contains(retryAfter))
            #expect(try Support.decode(HubErrorBody.self, response.body).error.contains("too many new channels"))
        }
    }
}
