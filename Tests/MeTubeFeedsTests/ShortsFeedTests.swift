import Foundation
@testable import MeTubeCore
@testable import MeTubeFeeds
import Testing

/// A channel's Shorts playlist feed (`UUSH…`), read from a fixture in the real playlist feed's
/// shape (see Fixtures/youtube_atom/SOURCES.md): which uploads it marks as Shorts, and what it
/// ignores when hostile.
@Suite struct ShortsFeedTests {
    static let nasa = "UCLA_DiR1FfKNvjuUpBHmylQ"
    static let nasaShorts: Set<String> = ["myZ9kn9MIWQ", "QP5Fs3AYuWE", "VV_JW4iCni0"]

    private func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/youtube_atom/\(name)", withExtension: nil))
        return try Data(contentsOf: url)
    }

    /// A Shorts feed of `channelID` whose entries are `entries` (video id, channel named).
    private func shortsFeed(_ channelID: String, _ entries: [(String, String)]) -> Data {
        let playlistID = "UUSH" + channelID.dropFirst(2)
        let items = entries.map { id, channel in
            "<entry><id>yt:video:\(id)</id><yt:videoId>\(id)</yt:videoId><yt:channelId>\(channel)</yt:channelId><title>s</title></entry>\n"
        }
        return Data(("""
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom">
            <yt:playlistId>\(playlistID)</yt:playlistId><yt:channelId>\(channelID)</yt:channelId>

            """ + items.joined() + "</feed>").utf8)
    }

    private static func videoID(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "v", count: 11 - digits.count) + digits
    }

    @Test func theShortsPlaylistIsTheChannelIdWithUUSHForUC() {
        #expect(ShortsFeed.playlistID(of: Self.nasa) == "UUSHLA_DiR1FfKNvjuUpBHmylQ")
        #expect(ShortsFeed.playlistID(of: "UULFLA_DiR1FfKNvjuUpBHmylQ") == nil)
        #expect(ShortsFeed.playlistID(of: "UCshort") == nil)
        #expect(
            ShortsFeed.url(channelFeedTemplate: "https://www.youtube.com/feeds/videos.xml?channel_id={channelId}", channelID: Self.nasa)
                == "https://www.youtube.com/feeds/videos.xml?playlist_id=UUSHLA_DiR1FfKNvjuUpBHmylQ")
        // A feed server of another shape has no Shorts feeds: the links decide there
        #expect(ShortsFeed.url(channelFeedTemplate: "http://127.0.0.1:9/feeds/{channelId}", channelID: Self.nasa) == nil)
    }

    @Test func theFixtureMarksTheShortsTheChannelFeedLinksAsOrdinaryVideos() throws {
        // Given NASA's channel feed with its three /shorts/ links written as watch links, as
        // feeds give some Shorts
        let channelText = String(decoding: try fixture("youpdated_nasa_channel_2026.xml"), as: UTF8.self)
            .replacingOccurrences(of: "https://www.youtube.com/shorts/", with: "https://www.youtube.com/watch?v=")
        let channelFeed = try AtomFeedParser.parse(Data(channelText.utf8))
        #expect(!channelFeed.entries.contains { $0.isShortLink })
        #expect(Set(ShortsFeed.uploadsToCheck(in: channelFeed, channelID: Self.nasa)).isSuperset(of: Self.nasaShorts))

        // When its Shorts feed is read
        let shortsFeed = try AtomFeedParser.parse(try fixture("uush_nasa_shorts_playlist_feed_2026.xml"))
        #expect(shortsFeed.playlistID == "UUSHLA_DiR1FfKNvjuUpBHmylQ")
        #expect(shortsFeed.channelID == Self.nasa)
        let shortIDs = ShortsFeed.shortIDs(in: shortsFeed, channelID: Self.nasa)

        // Then exactly the three Shorts are marked, and the other uploads are left as they were
        #expect(shortIDs == Self.nasaShorts)
        let videos = channelFeed.entries.map { $0.video(fallbackDate: Date()).marked(shorts: shortIDs) }
        #expect(Set(videos.filter(\.isShortLink).map(\.id)) == Self.nasaShorts)
        #expect(videos.count == 15)
    }

    @Test func entriesOfAnotherChannelOrAnotherPlaylistAreIgnored() throws {
        let other = "UCFLblMGuKiILOvEedNYdlGA"
        let mixed = try AtomFeedParser.parse(shortsFeed(Self.nasa, [("myZ9kn9MIWQ", Self.nasa), ("58lQYebee-o", other)]))
        #expect(ShortsFeed.shortIDs(in: mixed, channelID: Self.nasa) == ["myZ9kn9MIWQ"])
        // The whole feed is another channel's: nothing of it counts for NASA
        let foreign = try AtomFeedParser.parse(shortsFeed(other, [("58lQYebee-o", other)]))
        #expect(ShortsFeed.shortIDs(in: foreign, channelID: Self.nasa).isEmpty)
        // The real playlist feed (a PL… playlist) names no Shorts either
        let playlist = try AtomFeedParser.parse(try fixture("efg_playlist_feed_german_persian_2023.xml"))
        #expect(ShortsFeed.shortIDs(in: playlist, channelID: "UCFLblMGuKiILOvEedNYdlGA").isEmpty)
    }

    @Test func aFeedOfTenThousandEntriesIsReadOnlyToTheEntryCap() throws {
        let entries = (0..<10_000).map { (Self.videoID($0), Self.nasa) }
        let feed = try AtomFeedParser.parse(shortsFeed(Self.nasa, entries))
        let shortIDs = ShortsFeed.shortIDs(in: feed, channelID: Self.nasa)
        let (count, first, beyondCap, last) = (
            shortIDs.count, shortIDs.contains(Self.videoID(0)), shortIDs.contains(Self.videoID(ShortsFeed.maxEntries)),
            shortIDs.contains(Self.videoID(9_999)))
        #expect(count == ShortsFeed.maxEntries)
        #expect(first)
        #expect(!beyondCap)
        #expect(!last)
    }
}
