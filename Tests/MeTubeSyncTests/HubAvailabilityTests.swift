import Foundation
import MeTubeCore
import MeTubeFeeds
@testable import MeTubeSync
import Testing

/// The additive `availability` and `scheduledStart` fields of a `videos/query` row, read from a
/// hostile hub: whatever they say, no row is lost and no video is hidden for good.
@Suite struct HubAvailabilityTests {
    private static let now = ISO8601Timestamp.parse("2026-11-26T12:00:00Z")!

    private func videos(_ rows: [String]) throws -> [String: Video] {
        let rows = rows.enumerated().map { index, fields in
            let id = String(format: "video%06d", index)
            return #"{"seq":\#(index + 1),"videoId":"\#(id)","channelId":"UC0123456789012345678901","publishedAt":"2026-11-26T10:00:00Z","title":"t","url":"https://www.youtube.com/watch?v=\#(id)","durationSeconds":null\#(fields)}"#
        }
        let json = #"{"videos":[\#(rows.joined(separator: ","))],"maxSeqReturned":\#(rows.count)}"#
        let page = try Data(json.utf8).withUnsafeBytes { bytes in try ScreenedHubPage(json: bytes) }
        #expect(page.videos.count == rows.count)
        return Dictionary(uniqueKeysWithValues: page.videos.compactMap { HubSyncRun.video($0, now: Self.now) }.map { ($0.id, $0) })
    }

    @Test func aHubsStatesAndStartsReachTheStoreAndAbsurdOnesAreDropped() throws {
        let read = try videos([
            "",
            #","availability":"upcoming","scheduledStart":"2026-11-26T20:00:00Z""#,
            #","availability":"upcoming","scheduledStart":"9999-12-31T23:59:59Z""#,
            #","availability":"upcoming","scheduledStart":"1970-01-01T00:00:00Z""#,
            #","availability":"live""#,
            #","availability":"gone""#,
            #","availability":"teleported""#,
            #","availability":42,"scheduledStart":true"#,
            #","availability":"\#(String(repeating: "u", count: 5_000))""#,
        ])
        #expect(read["video000000"]?.availability == .available)
        #expect(read["video000001"]?.availability == .upcoming)
        #expect(read["video000001"]?.scheduledStart == ISO8601Timestamp.parse("2026-11-26T20:00:00Z"))
        #expect(read["video000002"]?.availability == .upcoming && read["video000002"]?.scheduledStart == nil)
        #expect(read["video000003"]?.availability == .upcoming && read["video000003"]?.scheduledStart == nil)
        #expect(read["video000004"]?.availability == .live)
        #expect(read["video000005"]?.availability == .gone)
        #expect(read["video000006"]?.availability == .available)
        #expect(read["video000007"]?.availability == .available && read["video000007"]?.scheduledStart == nil)
        #expect(read["video000008"]?.availability == .available)
    }

    @Test func aVideoThatFlipsBetweenLiveAndUpcomingOnEveryPollKeepsOneRowAndItsStart() throws {
        // Given a premiere the hub reports upcoming, then live, then upcoming again without a start
        var library = Library()
        let start = #","scheduledStart":"2026-11-26T20:00:00Z""#
        for fields in [#","availability":"upcoming""# + start, #","availability":"live""#, #","availability":"upcoming""#, #","availability":"upcoming""# + start] {
            library.upsert(Array(try videos([fields]).values))
        }
        // Then it is one video, upcoming with its start, and the upcoming view shows it once
        #expect(library.videos.count == 1)
        #expect(library.videos[0].availability == .upcoming)
        #expect(library.videos[0].scheduledStart == ISO8601Timestamp.parse("2026-11-26T20:00:00Z"))
    }
}
