import Foundation
import MeTubeCore
import MeTubeFeeds
import Testing

/// OPML export: the layout other readers expect, escaping, and reading it back.
@Suite struct ImportOPMLExportTests {
    @Test func exportHasYouTubesLayoutWithFeedURLs() {
        // Given one titled channel
        let channel = Channel(id: "UC2eYFnH61tmytImy1mTYvhA", title: "Luke Smith")
        // When it is exported
        let opml = OPMLExport.render([channel])
        // Then the document is OPML 1.1 with one rss outline inside the YouTube folder
        #expect(opml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="1.1">
              <head>
                <title>metube subscriptions</title>
              </head>
              <body>
                <outline text="YouTube Subscriptions" title="YouTube Subscriptions">
                  <outline text="Luke Smith" title="Luke Smith" type="rss" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=UC2eYFnH61tmytImy1mTYvhA" />
                </outline>
              </body>
            </opml>

            """)
    }

    @Test func titlesAreEscapedAndReadBackUnchanged() throws {
        // Given titles with markup characters, quotes, a tab, a newline and a control character
        let channels = [
            Channel(id: "UCbochVIwBCzJb9I2lLGXGjQ", title: "Rhett & Link"),
            Channel(id: "UC2eYFnH61tmytImy1mTYvhA", title: #"<b>"Luke"</b> Smith's"#),
            Channel(id: "UCXuqSBlHAE6Xw-yeJA0Tunw", title: "Linus\tTech\nTips\u{7}"),
        ]
        // When they are exported and the export is read back
        let opml = OPMLExport.render(channels)
        let result = try SubscriptionImporter.read(Data(opml.utf8), fileName: "metube.opml")
        // Then the XML holds only escaped markup and the titles survive (the control character dropped)
        #expect(opml.contains(#"text="Rhett &amp; Link""#))
        #expect(opml.contains(#"title="&lt;b&gt;&quot;Luke&quot;&lt;/b&gt; Smith's""#))
        #expect(opml.contains(#"text="Linus&#9;Tech&#10;Tips""#))
        #expect(result.format == .opml)
        #expect(result.rejected.isEmpty)
        #expect(result.channels.map(\.title) == ["Rhett & Link", #"<b>"Luke"</b> Smith's"#, "Linus\tTech\nTips"])
    }

    @Test func exportOfAFixtureReadsBackToTheSameChannels() throws {
        // Given the 363 channels of a real OPML export, with Vietnamese, Japanese and Cyrillic titles
        let original = try ImportFixtures.read("youtube_opml/subscription_manager_2019_thelq_prettyprinted.xml")
        // When they are exported and read back
        let roundTrip = try SubscriptionImporter.read(
            Data(OPMLExport.render(original.channels).utf8), fileName: nil, importedAt: original.channels[0].addedAt)
        // Then the same channels come back, in the same order, with the same titles
        #expect(roundTrip.channels == original.channels)
        #expect(roundTrip.rejected.isEmpty)
    }

    @Test func untitledChannelsReadBackUntitled() throws {
        // Given a channel with no title and one with an empty title
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let channels = [
            Channel(id: "UC2eYFnH61tmytImy1mTYvhA", title: nil, addedAt: date),
            Channel(id: "UCXuqSBlHAE6Xw-yeJA0Tunw", title: "", addedAt: date),
        ]
        // When they are exported and read back
        let opml = OPMLExport.render(channels)
        let result = try SubscriptionImporter.read(Data(opml.utf8), fileName: nil, importedAt: date)
        // Then the outlines show the id as their text, and the import has no titles
        #expect(opml.contains(#"<outline text="UC2eYFnH61tmytImy1mTYvhA" title="UC2eYFnH61tmytImy1mTYvhA" type="rss""#))
        #expect(result.channels == [channels[0], Channel(id: "UCXuqSBlHAE6Xw-yeJA0Tunw", title: nil, addedAt: date)])
    }

    @Test func emptyExportIsAValidOPMLWithoutChannels() throws {
        // Given no channels
        // When they are exported and read back
        let result = try SubscriptionImporter.read(Data(OPMLExport.render([]).utf8), fileName: nil)
        // Then the document is still OPML and holds nothing
        #expect(result.format == .opml)
        #expect(result.channels.isEmpty)
        #expect(result.rejected.isEmpty)
    }
}
