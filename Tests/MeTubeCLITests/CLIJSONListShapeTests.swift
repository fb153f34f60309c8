import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// Every command that prints a list prints one JSON shape: an object with `count` and the rows
/// under one key (`videos` or `channels`), never a bare array.
@Suite struct CLIJSONListShapeTests {
    let metube = ProductBinary.url("metube")

    @Test("list, queue, download status and channels list print {\"count\": N, key: [N rows]}")
    func oneShape() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let generator = smallLibrary(videos: 6, channels: 2)
        let videos = generator.videos()
        try Store.open(at: directory.url).apply(StoreChange(videos: videos, channels: generator.channels()))
        let data = ["--data-dir", directory.url.path]
        #expect(try runProcess(metube, ["queue", "add", videos[0].id, videos[3].id] + data).status == 0)

        let commands: [([String], String, Int)] = [
            (["list", "--filter", "all"], "videos", videos.count),
            (["queue"], "videos", 2),
            (["download", "status"], "videos", 2),
            (["channels", "list"], "channels", 2),
        ]
        for (command, key, expected) in commands {
            let run = try runProcess(metube, command + ["--json"] + data)
            #expect(run.status == 0, "\(command): \(run.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            let rows = object?[key] as? [[String: Any]]
            #expect(rows?.count == expected, "\(command): \(run.stdout.prefix(200))")
            #expect(object?["count"] as? Int == expected, "\(command): \(run.stdout.prefix(200))")
        }
    }
}
