import Foundation
@testable import MeTubeCore
@testable import MeTubeFeeds
import Testing

/// What a feed entry says beyond its title: `media:description`, `media:starRating`'s count and
/// `media:statistics`' views, read from real feeds and bounded when a feed is hostile.
@Suite struct AtomFeedDetailsTests {
    private func feed(description: String, views: String, ratings: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns:media="http://search.yahoo.com/mrss/" xmlns="http://www.w3.org/2005/Atom">
            <entry><yt:videoId>dQw4w9WgXcQ</yt:videoId><yt:channelId>UCLA_DiR1FfKNvjuUpBHmylQ</yt:channelId><title>t</title>
            <published>2026-01-01T00:00:00+00:00</published><media:group><media:description>\(description)</media:description>
            <media:community><media:starRating count="\(ratings)" average="5.00" min="1" max="5"/><media:statistics views="\(views)"/></media:community>
            </media:group></entry></feed>
            """.utf8)
    }

    @Test func aRealFeedsCountsAndDescriptionAreRead() throws {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/youtube_atom/capyreader_digital_foundry_channel.xml", withExtension: nil))
        let entry = try #require(try AtomFeedParser.parse(Data(contentsOf: url)).entries.first)
        #expect(entry.views == 23_088)
        #expect(entry.starRatings == 1_580)
        #expect(entry.description?.hasPrefix("As the holiday period begins to unwind") == true)
        let video = entry.video(fallbackDate: Date())
        #expect(video.views == 23_088)
        #expect(video.starRatings == 1_580)
    }

    @Test(arguments: [("-5", "-1"), ("99999999999999999999999", "1e9"), ("12.5", ""), (" 7", "0x10"), ("\(FeedLimits.maxCount + 1)", "seven")])
    func hostileCountsAreUnknown(views: String, ratings: String) throws {
        let entry = try #require(try AtomFeedParser.parse(feed(description: "d", views: views, ratings: ratings)).entries.first)
        #expect(entry.views == nil)
        #expect(entry.starRatings == nil)
    }

    @Test func aMegabyteDescriptionIsCutAtACharacterBoundary() throws {
        let entry = try #require(try AtomFeedParser.parse(feed(description: String(repeating: "東", count: 400_000), views: "0", ratings: "0")).entries.first)
        let description = try #require(entry.description)
        #expect(description.utf8.count <= FeedLimits.maxDescriptionBytes && description.utf8.count > FeedLimits.maxDescriptionBytes - 3)
        #expect(description.allSatisfy { $0 == "東" })
        #expect(entry.views == 0)
        #expect(entry.starRatings == 0)
    }
}
