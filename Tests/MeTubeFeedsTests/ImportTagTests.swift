import Foundation
import MeTubeCore
import MeTubeFeeds
import Testing

/// Tags from the folders, profiles and tags of subscription exports.
@Suite struct ImportTagTests {
    private let first = "UC" + String(repeating: "a", count: 22)
    private let second = "UC" + String(repeating: "b", count: 22)
    private let third = "UC" + String(repeating: "c", count: 22)

    private func tags(_ result: SubscriptionImport) -> [String: [String]] {
        Dictionary(uniqueKeysWithValues: result.channels.map { ($0.id, $0.tags ?? []) })
    }

    @Test func newsboatTagsBecomeTagsButNotTitlesHidingOrComments() throws {
        // Given a real urls file whose YouTube feeds carry a `youtube` tag, a `"!"` and a comment
        let voidrice = try ImportFixtures.read("newsboat/newsboat_urls_voidrice.txt")
        let awinquis = try ImportFixtures.read("newsboat/newsboat_urls_awinquis.txt")
        // Then each channel is tagged with what is a tag
        #expect(!voidrice.channels.isEmpty)
        #expect(voidrice.channels.allSatisfy { !($0.tags ?? []).contains { $0.hasPrefix("~") || $0.hasPrefix("!") || $0.hasPrefix("#") } })
        #expect(awinquis.channels.contains { $0.tags == ["youtube"] })
        // And a made-up file keeps several quoted tags in order
        let text = "https://www.youtube.com/channel/\(first) \"~Some Title\" music \"live sets\" !hidden # a comment\n"
        #expect(tags(try ImportFixtures.read(text: text, fileName: "urls")) == [first: ["music", "live sets"]])
    }

    @Test func opmlFoldersBecomeTagsExceptOneFolderAroundEverything() throws {
        // Given YouTube's export, whose only folder wraps every feed
        let youtube = try ImportFixtures.read("youtube_opml/subscription_manager_2019_thelq_prettyprinted.xml")
        #expect(youtube.channels.allSatisfy { $0.tags == nil })
        // And an OPML file with nested folders
        let opml = """
            <?xml version="1.0"?><opml version="1.1"><body>
            <outline text="Music"><outline text="Live">
              <outline text="A" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=\(first)"/></outline>
              <outline text="B" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=\(second)"/></outline>
            <outline text="C" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=\(third)"/>
            </body></opml>
            """
        // Then each feed is tagged with the folders it is in, outermost first
        #expect(tags(try ImportFixtures.read(text: opml)) == [first: ["Music", "Live"], second: ["Music"], third: []])
    }

    @Test func freeTubeProfilesTagTheirChannels() throws {
        // Given a real profiles.db with only the built-in profile: no tags
        let real = try ImportFixtures.read("freetube/freetube_profiles_alessa-l.db")
        #expect(real.channels.allSatisfy { $0.tags == nil })
        // And one with two more profiles (a channel in both)
        func item(_ id: String) -> String { #"{"id":"\#(id)","name":"n","thumbnail":""}"# }
        let db = """
            {"name":"All Channels","bgColor":"#000000","textColor":"#FFFFFF","subscriptions":[\(item(first)),\(item(second)),\(item(third))],"_id":"allChannels"}
            {"name":"Music","bgColor":"#000000","textColor":"#FFFFFF","subscriptions":[\(item(first)),\(item(second))],"_id":"p1"}
            {"name":"Friday","bgColor":"#000000","textColor":"#FFFFFF","subscriptions":[\(item(second))],"_id":"p2"}
            """
        // Then each channel is tagged with the profiles it is in, and none is rejected
        let result = try ImportFixtures.read(text: db, fileName: "profiles.db")
        #expect(tags(result) == [first: ["Music"], second: ["Music", "Friday"], third: []])
        #expect(result.rejected.isEmpty)
    }
}
