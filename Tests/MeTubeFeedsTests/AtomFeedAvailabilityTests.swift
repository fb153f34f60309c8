import Foundation
import MeTubeCore
import MeTubeFeeds
import Testing

/// What a feed entry says about a video's availability, read from a saved feed.
@Suite struct AtomFeedAvailabilityTests {
    private static let premiereID = "yW-VAhqVJok"
    private static let premierePublished = ISO8601Timestamp.parse("2026-08-11T14:33:06+00:00")!

    @Test func theNASAFeedsEntryWithNoViewsIsUpcomingWhileItIsNew() throws {
        // Given the saved NASA feed, whose "U.S. Spacewalk 97" has media:statistics views="0"
        let feed = try AtomFeedParser.parse(try fixture("youtube_atom", "youpdated_nasa_channel_2026.xml"))
        let entry = try #require(feed.entries.first { $0.videoID == Self.premiereID })

        // When it is read an hour after its announcement, and again ten days later
        let fresh = entry.video(fallbackDate: Self.premierePublished.addingTimeInterval(3_600))
        let old = entry.video(fallbackDate: Self.premierePublished.addingTimeInterval(10 * 86_400))

        // Then it is upcoming while new, and available once no longer new; the entries with views stay available
        #expect(fresh.availability == .upcoming)
        #expect(old.availability == .available)
        let others = feed.entries.filter { $0.videoID != Self.premiereID }.map { $0.video(fallbackDate: Self.premierePublished) }
        #expect(others.allSatisfy { $0.availability == .available })
    }

    private func fixture(_ folder: String, _ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(folder)/\(name)", withExtension: nil))
        return try Data(contentsOf: url)
    }
}
