import Foundation
@testable import MeTubeCore
@testable import MeTubeFeeds
import Testing

/// A feed is outside input: ids are validated and titles capped before anything is stored.
@Suite struct AtomFeedBoundaryTests {
    private func feed(entries: [(id: String, title: String)]) -> Data {
        let body = entries.map { entry in
            """
            <entry><yt:videoId>\(entry.id)</yt:videoId><yt:channelId>UCLA_DiR1FfKNvjuUpBHmylQ</yt:channelId>
            <title>\(entry.title)</title><published>2026-01-01T00:00:00+00:00</published></entry>
            """
        }.joined()
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom">
            <yt:channelId>UCLA_DiR1FfKNvjuUpBHmylQ</yt:channelId><title>\(String(repeating: "c", count: 5_000))</title>\(body)</feed>
            """.utf8)
    }

    @Test func entriesWithInvalidIDsAreDroppedAndLongTitlesCapped() throws {
        let parsed = try AtomFeedParser.parse(feed(entries: [
            (String(repeating: "A", count: 5_000), "huge id"),
            ("abc&#10;defghij", "newline in id"),
            ("abcde fghij", "space in id"),
            ("dQw4w9WgXcQ", String(repeating: "t", count: 100_000)),
        ]))
        #expect(parsed.entries.map(\.videoID) == ["dQw4w9WgXcQ"])
        #expect(parsed.entries.first?.title.count == DisplayText.titleLimit)
        #expect(parsed.title?.count == DisplayText.titleLimit)
    }
}
