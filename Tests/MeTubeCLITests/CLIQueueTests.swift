import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `metube queue [list|add|remove]` on a real store.
@Suite struct CLIQueueTests {
    let metube = ProductBinary.url("metube")

    @Test func addListRemoveAndTheirExitCodes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let generator = smallLibrary(videos: 6, channels: 2)
        let videos = generator.videos()
        try Store.open(at: directory.url).apply(StoreChange(videos: videos, channels: generator.channels()))
        let data = ["--data-dir", directory.url.path]
        let (first, second) = (videos[4].id, videos[1].id)

        // When two videos are queued (one as a URL) and the first is queued again
        let added = try runProcess(metube, ["queue", "add", first, "https://youtu.be/\(second)"] + data)
        let again = try runProcess(metube, ["queue", "add", first] + data)
        // Then the list holds them in the order added, with titles, and --json says the same
        #expect(added.status == 0 && added.stdout == "\(first) queued\n\(second) queued\n", "\(added.stderr)")
        #expect(again.status == 0 && again.stdout.contains("already queued"))
        let list = try runProcess(metube, ["queue"] + data)
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix(first) && lines[1].hasPrefix(second) && lines[0].contains(videos[4].title))
        let json = try runProcess(metube, ["queue", "--json"] + data)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["videos"] as? [[String: Any]])
        #expect(object["count"] as? Int == 2)
        #expect(rows.map { $0["videoId"] as? String } == [first, second])
        #expect(rows.allSatisfy { $0["syncState"] as? String == "pending" && $0["queuedAt"] is String })

        // When the first is marked watched, and the second removed twice
        _ = try runProcess(metube, ["mark", first, "watched"] + data)
        let removed = try runProcess(metube, ["queue", "remove", second] + data)
        let removedAgain = try runProcess(metube, ["queue", "remove", second] + data)
        // Then the queue is empty; removing what is not queued ends with 4
        #expect(removed.status == 0)
        #expect(removedAgain.status == 4 && removedAgain.stdout.contains("was not queued"))
        #expect(try runProcess(metube, ["queue", "--json"] + data).stdout == "{\"count\":0,\"videos\":[]}\n")

        // And bad input is refused with its exit code, changing nothing
        let notAnID = try runProcess(metube, ["queue", "add", "not-a-video\u{1b}[31m"] + data)
        #expect(notAnID.status == 65 && notAnID.stderr.contains("is not a YouTube video id") && !notAnID.stderr.contains("\u{1b}"))
        let unknown = try runProcess(metube, ["queue", "add", "zzzzzzzzzzz"] + data)
        #expect(unknown.status == 4 && unknown.stderr.contains("--force"))
        #expect(try runProcess(metube, ["queue", "add", "--force", "zzzzzzzzzzz"] + data).status == 0)
        let forced = try runProcess(metube, ["queue", "--json"] + data)
        #expect(forced.stdout.contains("zzzzzzzzzzz") && !forced.stdout.contains("title"))
    }
}
