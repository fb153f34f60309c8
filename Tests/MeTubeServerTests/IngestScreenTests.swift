import Foundation
import MeTubeCore
@testable import MeTubeServer
import MeTubeYouTube
import Testing

/// ``IngestScreen``, the one rule for what every source brings into the hub, at its edges (the
/// whole path, per class and scheme on both backends, is `IngestScreeningTests`).
@Suite struct IngestScreenTests {
    @Test func aLineKeepsPrintableTextAndTurnsLineBreaksIntoSpaces() {
        #expect(IngestScreen.line("Plain — ünïcødé 日本語 👩‍👩‍👧 (ZWJ kept)") == "Plain — ünïcødé 日本語 👩‍👩‍👧 (ZWJ kept)")
        #expect(IngestScreen.line("a\tb\nc\r\nd\u{2028}e") == "a b c  d e")
        #expect(IngestScreen.line("\u{0}\u{1B}[2J\u{7F}\u{85}\u{9F}\u{202E}\u{2066}\u{200E}\u{061C}x") == "[2Jx")
    }

    @Test func aDescriptionKeepsItsLinesAndTabsAsLFAndTAB() {
        #expect(IngestScreen.description("one\r\ntwo\rthree\n\tfour\u{2029}five") == "one\ntwo\nthree\n\tfour\nfive")
        #expect(IngestScreen.description("\r\n\r\n") == "\n\n")
        #expect(IngestScreen.description("a\u{1B}]0;t\u{7}b\u{202E}c\u{7F}") == "a]0;tbc")
    }

    @Test(arguments: [
        ("https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg", true), ("http://example.org/t.jpg", true), ("HTTPS://EXAMPLE.ORG/T.JPG", true),
        ("https://example.org", true), ("javascript:alert(1)", false), ("JavaScript://example.org/%0Aalert(1)", false),
        ("data:image/png;base64,AAAA", false), ("file:///etc/passwd", false), ("https:///no-host", false), ("//example.org/t.jpg", false),
        ("/vi/x/hqdefault.jpg", false), ("https://example.org/a b.jpg", false), ("https://example.org/\u{202E}gpj.exe", false),
        ("https://exämple.org/t.jpg", false), ("ftp://example.org/t.jpg", false), ("", false),
    ])
    func onlyAbsoluteHTTPAddressesAreKept(url: String, kept: Bool) {
        #expect(IngestScreen.thumbnailURL(url) == (kept ? url : nil))
    }

    @Test func anIngestionsChannelNameAndEveryVideoAreScreened() {
        let video = Video(id: "dQw4w9WgXcQ", channelID: "UCuAXFkgsw1L7xaCfnd5JJOw", title: "\u{202E}t\u{7F}", published: Date(timeIntervalSince1970: 0),
                          description: "d\u{1B}\n", thumbnailURL: "data:,x")
        let screened = IngestScreen.ingestion(FeedIngestion(channelID: video.channelID, channelTitle: "c\u{9B}h", videos: [video]))
        #expect(screened.channelTitle == "ch")
        #expect(screened.videos.map(\.title) == ["t"] && screened.videos.map(\.description) == ["d\n"])
        #expect(screened.videos[0].thumbnailURL == nil)
        let details = IngestScreen.channelDetails(YouTubeChannelDetails(title: "\u{2067}name\u{2069}", thumbnailURL: "file:///x"))
        #expect(details == YouTubeChannelDetails(title: "name", thumbnailURL: nil))
    }
}
