import Foundation
@testable import MeTubeCore
@testable import MeTubeFeeds
import Testing

@Suite struct AtomFeedParserTests {
    @Test(arguments: [
        ("capyreader_digital_foundry_channel.xml", "UC9PBzalIcEQCsiIkq36PyUA", 15),
        ("efg_playlist_feed_german_persian_2023.xml", "UCFLblMGuKiILOvEedNYdlGA", 15),
        ("feedjira_google_channel_2015.xml", "UCK8sQmJBp8GCxrOtXWBpyEA", 15),
        ("higuma_notify_japanese_channel.xml", "UC_aBYQ3phPsrkSXkpnZeDZw", 15),
        ("podtube_ift_spanish_channel_2021.xml", "UCk195x4zYdMx4LhqEwhcPng", 15),
        ("rssparser_kotlin_jetbrains_channel.xml", "UCP7uiEZIqci43m22KDl0sNw", 1),
        ("sitch_jacob_collier_channel_2019.xml", "UCtmY49Zn4l0RMJnTWfV7Wsg", 14),
        ("youpdated_nasa_channel_2026.xml", "UCLA_DiR1FfKNvjuUpBHmylQ", 15),
    ])
    func everyFixtureParsesWithItsChannelAndAllEntries(file: String, channelID: String, entries: Int) throws {
        // Given a real feed saved from YouTube
        let data = try fixture("youtube_atom", file)

        // When it is parsed
        let feed = try AtomFeedParser.parse(data)

        // Then the channel id carries its UC prefix and every entry has an id, a channel and a date
        #expect(feed.channelID == channelID)
        #expect(feed.entries.count == entries)
        for entry in feed.entries {
            #expect(entry.videoID.utf8.count == 11)
            #expect(ChannelID.isValid(entry.channelID))
            #expect(entry.published != nil)
            #expect(!entry.title.isEmpty)
        }
    }

    @Test func theChannelIDPrefixQuirkIsRepaired() throws {
        // Given a 2025 feed whose feed-level ids lack the UC prefix
        let feed = try AtomFeedParser.parse(try fixture("youtube_atom", "capyreader_digital_foundry_channel.xml"))

        // Then the channel and its entries carry the full id, and the title is the channel's
        #expect(feed.channelID == "UC9PBzalIcEQCsiIkq36PyUA")
        #expect(Set(feed.entries.map(\.channelID)) == ["UC9PBzalIcEQCsiIkq36PyUA"])
        #expect(feed.channelTitle == "Digital Foundry")
        #expect(AtomFeedParser.channelID("9PBzalIcEQCsiIkq36PyUA") == "UC9PBzalIcEQCsiIkq36PyUA")
    }

    @Test func shortsLinksAndCJKTitlesSurvive() throws {
        let feed = try AtomFeedParser.parse(try fixture("youtube_atom", "higuma_notify_japanese_channel.xml"))
        #expect(feed.entries.filter(\.isShortLink).count == 10)
        #expect(feed.entries[0].title == "【銀行員の良い話】お前ら仕事ガチってる？まだ本気じゃない君たちへ…Ver.2")
        #expect(feed.channelTitle == "ぼくひぐま。〜おとなの学びや〜")
        let short = try #require(feed.entries.first { $0.isShortLink })
        #expect(short.video(fallbackDate: Date()).isShortLink)
    }

    @Test func entitiesAreDecodedOnceAndRawQuotesAreKept() throws {
        let playlist = try AtomFeedParser.parse(try fixture("youtube_atom", "efg_playlist_feed_german_persian_2023.xml"))
        #expect(playlist.entries.contains { $0.title == "\"Dein Reich komme!\" | Stephan H. | Lukas 4, 14-21" })
        #expect(playlist.entries.contains { $0.title.hasSuffix("Lukas 13, 18-21 & Lukas 17, 20-21") })
        let old = try AtomFeedParser.parse(try fixture("youtube_atom", "sitch_jacob_collier_channel_2019.xml"))
        #expect(old.entries.contains { $0.title == "LOGIC SESSION BREAKDOWN: \"With The Love In My Heart\"" })
    }

    @Test func aPlaylistFeedNamesThePlaylistAndNoChannelTitle() throws {
        let feed = try AtomFeedParser.parse(try fixture("youtube_atom", "efg_playlist_feed_german_persian_2023.xml"))
        #expect(feed.isPlaylist)
        #expect(feed.playlistID == "PLNaJnjZbXzJa5L2DFGYFjBImw-g3K7ll0")
        #expect(feed.title == "Aktuell")
        #expect(feed.channelTitle == nil)
        #expect(feed.authorName == "Kirche am Rübenkamp")
    }

    @Test func aForeignChannelsEntryKeepsItsOwnChannel() throws {
        let feed = try AtomFeedParser.parse(try fixture("youtube_atom", "sitch_jacob_collier_channel_2019.xml"))
        #expect(feed.entries.filter { $0.channelID == "UCtvwz4sbS7mbIShLbBlGc7Q" }.count == 2)
    }

    @Test func aBlankLineBeforeTheDeclarationIsTolerated() throws {
        let data = try fixture("youtube_atom", "feedjira_google_channel_2015.xml")
        #expect(data.first == UInt8(ascii: "\n"))
        let feed = try AtomFeedParser.parse(data)
        #expect(feed.entries.first?.videoID == "5shykyfmb28")
        #expect(feed.entries.first?.published == ISO8601Timestamp.parse("2015-05-04T00:01:27Z"))
    }

    @Test func mediaFieldsAreRead() throws {
        let feed = try AtomFeedParser.parse(try fixture("youtube_atom", "youpdated_nasa_channel_2026.xml"))
        let first = try #require(feed.entries.first)
        #expect(first.views == 66195)
        #expect(first.thumbnailURL?.hasSuffix("/I_GUQdY01b0/hqdefault.jpg") == true)
        #expect(first.description != nil)
        #expect(feed.entries.filter(\.isShortLink).count == 3)
    }

    @Test func webSubPushesAndTombstonesParse() throws {
        // Given a real single-line push with nine-digit fractions, and a deletion push
        let push = try AtomFeedParser.parse(try fixture("youtube_websub", "gearplug_push_notification_real_2017.xml"))
        let deletion = try AtomFeedParser.parse(try fixture("youtube_websub", "ytnoti_deleted_entry_tombstone_redacted_2024.xml"))

        // Then the upload and the deleted id are found, and the fixed WebSub title is no channel title
        #expect(push.entries.map(\.videoID) == ["KtMyGttbyq0"])
        #expect(push.channelID == "UC7d1wZsLdg9pcU5JxaHhNJw")
        #expect(push.channelTitle == nil)
        #expect(push.entries[0].updated == ISO8601Timestamp.parse("2017-12-15T14:28:16.109921364Z"))
        #expect(deletion.entries.isEmpty)
        #expect(deletion.deletedVideoIDs == ["VIDEO_ID"])
    }

    @Test func cdataDoubleEscapesAndMissingOptionalElements() throws {
        // Given an entry with CDATA, a double-escaped entity, no yt:videoId, no published date and no media group
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom">
             <link rel="self" href="http://www.youtube.com/feeds/videos.xml?channel_id=UCabcdefghijklmnopqrstuv"/>
             <title><![CDATA[Tom & Jerry <Official>]]></title>
             <entry>
              <id>yt:video:abcdefghijk</id>
              <title>A &amp;lt;b&amp;gt; tag — ünïcödé 🎉</title>
              <link rel="alternate" href="https://www.youtube.com/watch?v=abcdefghijk"/>
              <updated>2025-01-02T03:04:05+02:00</updated>
             </entry>
             <entry><title>no id at all</title></entry>
            </feed>
            """

        // When it is parsed
        let feed = try AtomFeedParser.parse(Data(xml.utf8))

        // Then the id comes from <id>, the channel from the feed, the date from <updated>; the id-less entry is skipped
        #expect(feed.channelTitle == "Tom & Jerry <Official>")
        #expect(feed.entries.count == 1)
        let entry = try #require(feed.entries.first)
        #expect(entry.videoID == "abcdefghijk")
        #expect(entry.channelID == "UCabcdefghijklmnopqrstuv")
        #expect(entry.title == "A &lt;b&gt; tag — ünïcödé 🎉")
        #expect(entry.published == nil)
        #expect(entry.video(fallbackDate: .distantPast).published == ISO8601Timestamp.parse("2025-01-02T01:04:05Z"))
        #expect(entry.description == nil && entry.thumbnailURL == nil && entry.views == nil)
    }

    @Test func malformedXMLNamesTheLine() {
        let error = #expect(throws: MeTubeCoreError.self) {
            try AtomFeedParser.parse(Data("<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<entry>\n</feed>".utf8))
        }
        guard case .malformedInput(let format, let location, _) = error else {
            Issue.record("expected malformedInput, got \(String(describing: error))")
            return
        }
        #expect(format == "Atom feed")
        #expect(location.hasPrefix("line 3"))
    }

    @Test func aDocumentThatIsNotAnAtomFeedIsRefused() {
        #expect(throws: MeTubeCoreError.unrecognizedFormat(hint: "expected an Atom <feed> root element, found <rss>")) {
            try AtomFeedParser.parse(Data("<rss version=\"2.0\"><channel/></rss>".utf8))
        }
        #expect(throws: MeTubeCoreError.self) { try AtomFeedParser.parse(Data()) }
    }

    private func fixture(_ folder: String, _ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/\(folder)/\(name)", withExtension: nil))
        return try Data(contentsOf: url)
    }
}
