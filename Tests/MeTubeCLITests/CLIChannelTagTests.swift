import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `metube channels tag|untag|list` and `metube list --tag` on a real store.
@Suite struct CLIChannelTagTests {
    let metube = ProductBinary.url("metube")

    @Test func taggingShowsInTheListsAndFiltersTheFeed() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let generator = smallLibrary(videos: 20, channels: 4)
        try Store.open(at: directory.url).apply(StoreChange(videos: generator.videos(), channels: generator.channels()))
        let channel = generator.channels()[1].id
        let data = ["--data-dir", directory.url.path]

        // When a channel is tagged twice and untagged once
        let tagged = try runProcess(metube, ["channels", "tag", channel, "music", "live"] + data)
        _ = try runProcess(metube, ["channels", "tag", channel, "late"] + data)
        let untagged = try runProcess(metube, ["channels", "untag", channel, "live"] + data)

        // Then the commands say so, the channels list shows the tags and a pending sync state, and
        // the feed filtered by a tag holds only that channel's videos
        #expect(tagged.status == 0 && tagged.stdout.contains("music, live"), "\(tagged.stderr)")
        #expect(untagged.stdout.contains("music, late"))
        let list = try runProcess(metube, ["channels", "list"] + data)
        #expect(list.stdout.contains("[music, late]"))
        let json = try runProcess(metube, ["channels", "list", "--json"] + data)
        #expect(json.stdout.contains("\"syncState\" : \"pending\"") || json.stdout.contains("\"syncState\":\"pending\""))
        let feed = try runProcess(metube, ["list", "--filter", "all", "--tag", "music", "--json"] + data)
        let videos = try #require(try JSONSerialization.jsonObject(with: Data(feed.stdout.utf8)) as? [String: Any])["videos"] as? [[String: Any]]
        #expect(videos?.isEmpty == false)
        #expect(videos?.allSatisfy { $0["channelId"] as? String == channel } == true)

        // And a control character in a tag, or a channel not followed, is refused with its exit code
        let bad = try runProcess(metube, ["channels", "tag", channel, "red\u{1b}[31m"] + data)
        #expect(bad.status == 65 && bad.stderr.contains("is not a tag"))
        let unknown = try runProcess(metube, ["channels", "tag", "UC" + String(repeating: "z", count: 22), "x"] + data)
        #expect(unknown.status != 0 && unknown.stderr.contains("not followed"))
    }
}
