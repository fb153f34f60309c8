import Foundation
import MeTubeAPI
import MeTubeServer
import Testing

@Suite("Status throttling")
struct MarkSyncThrottleTests {
    @Test("a user over the rate gets 429 THROTTLED with retryAfter; another user is unaffected")
    func throttled() async throws {
        // Given a service allowing a burst of 3 requests, then one every 100 seconds
        let fixture = try await MarkSyncFixture(configuration: MarkSyncConfiguration(requestsPerSecond: 0.01, burst: 3))
        try await fixture.withClient { client in
            // When alice sends 4 requests at once and bob one
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(Int(try await client.get("zones/list", token: client.alice).status.code)) }
            let throttled = try await client.get("zones/list", token: client.alice)
            let bobs = try await client.get("zones/list", token: client.bob)
            // Then her fourth and fifth are throttled with a retryAfter and Retry-After header, bob's passes
            #expect(statuses == [200, 200, 200, 429])
            #expect(throttled.status.code == 429)
            let error = try decode(MarkSyncErrorBody.self, throttled)
            #expect(error.serverErrorCode == .throttled)
            #expect((error.retryAfter ?? 0) > 0)
            #expect(throttled.headers[.retryAfter] != nil)
            #expect(bobs.status.code == 200)
        }
    }
}
