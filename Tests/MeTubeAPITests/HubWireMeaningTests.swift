import Foundation
import MeTubeAPI
import Testing

/// The recorded hub documents decode to the values the hub API describes, not merely to
/// something that encodes back.
@Suite("Hub wire meaning")
struct HubWireMeaningTests {
    @Test func videoPageRowsKeepEveryFieldAndNullsStayNil() throws {
        // Given the documented videos/query answer, one row with a duration and one without
        // When it is decoded
        let page = try JSONDecoder().decode(HubVideoPage.self, from: WireExample.fixture("hub-videos-query-response.json"))
        // Then each row holds the documented values, and null title and duration are nil
        #expect(page.maxSeqReturned == 12347)
        #expect(page.videos.map(\.seq) == [12346, 12347])
        let first = try #require(page.videos.first)
        #expect(first.videoID == "abcd")
        #expect(first.channelID == "UCXuqSBlHAE6Xw-yeJA0Tunw")
        #expect(first.publishedAt == "2025-12-10T18:11:22Z")
        #expect(first.title == "…")
        #expect(first.url == "https://www.youtube.com/watch?v=abcd")
        #expect(first.durationSeconds == 123)
        #expect(page.videos.last?.title == nil)
        #expect(page.videos.last?.durationSeconds == nil)
    }

    @Test func emptyPageCarriesTheLargestWatermark() throws {
        let page = try JSONDecoder().decode(HubVideoPage.self, from: WireExample.fixture("hub-videos-query-response-empty.json"))
        #expect(page.videos.isEmpty)
        #expect(page.maxSeqReturned == HubAPI.maxAfterSeq)
    }

    @Test func channelListKeepsTitlesAndThumbnailsOrNil() throws {
        let list = try JSONDecoder().decode(HubChannelList.self, from: WireExample.fixture("hub-channels-response.json"))
        #expect(list.channels.map(\.channelID) == ["UCXuqSBlHAE6Xw-yeJA0Tunw", "UC-lHJZR3Gqxm24_Vd_AJ5Yw"])
        #expect(list.channels.first?.title == "Linus Tech Tips")
        #expect(list.channels.first?.thumbnailURL?.hasPrefix("https://yt3.") == true)
        #expect(list.channels.last?.title == nil)
        #expect(list.channels.last?.thumbnailURL == nil)
    }

    @Test func queryFieldsAreOptionalAndKeepTheirValues() throws {
        let empty = try JSONDecoder().decode(HubVideoQuery.self, from: WireExample.fixture("hub-videos-query-request-empty.json"))
        #expect(empty == HubVideoQuery())
        let app = try JSONDecoder().decode(HubVideoQuery.self, from: WireExample.fixture("hub-videos-query-request-app.json"))
        #expect(app == HubVideoQuery(afterSeq: 12345, limit: 500))
        let full = try JSONDecoder().decode(HubVideoQuery.self, from: WireExample.fixture("hub-videos-query-request.json"))
        #expect(full == HubVideoQuery(channelIDs: ["UCXuqSBlHAE6Xw-yeJA0Tunw"], afterSeq: 0, limit: 200))
    }

    @Test func registerShapesKeepTheirValues() throws {
        let request = try JSONDecoder().decode(HubRegisterRequest.self, from: WireExample.fixture("hub-register-request.json"))
        #expect(request.channelIDs == ["UCXuqSBlHAE6Xw-yeJA0Tunw", "UC-lHJZR3Gqxm24_Vd_AJ5Yw"])
        let answer = try JSONDecoder().decode(HubRegisterResponse.self, from: WireExample.fixture("hub-register-response.json"))
        #expect(answer == HubRegisterResponse(requested: 1, inserted: 1, alreadyPresent: 0, totalChannels: 1))
        let error = try JSONDecoder().decode(HubErrorBody.self, from: WireExample.fixture("hub-error-no-valid-ids.json"))
        #expect(error.error == "no valid channel IDs")
    }

    @Test func encodedRowsWriteNullForUnknownValuesAsTheHubDoes() throws {
        // Given rows and channels with unknown title, duration and thumbnail
        let row = HubVideo(seq: 1, videoID: "v", channelID: "c", publishedAt: "2025-12-10T18:11:22Z", title: nil, url: "u")
        let channel = HubChannel(channelID: "UCXuqSBlHAE6Xw-yeJA0Tunw")
        // When they are encoded
        let rowJSON = try WireJSON(JSONEncoder().encode(row))
        let channelJSON = try WireJSON(JSONEncoder().encode(channel))
        // Then the keys are present with null, not left out
        guard case .object(let rowKeys) = rowJSON, case .object(let channelKeys) = channelJSON else {
            Issue.record("not objects: \(rowJSON) \(channelJSON)")
            return
        }
        #expect(rowKeys["title"] == .null)
        #expect(rowKeys["durationSeconds"] == .null)
        #expect(channelKeys["title"] == .null)
        #expect(channelKeys["thumbnailUrl"] == .null)
    }
}
