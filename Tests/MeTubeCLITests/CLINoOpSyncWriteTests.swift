import Foundation
import Hummingbird
import MeTubeCore
import MeTubeStore
import NIOCore
import Testing
import TestSupport

/// A `metube sync` that brings nothing new writes next to nothing to the store, whatever the
/// number of channels: the real binary against a loopback feed server (direct mode) and a real
/// `metube-server` (hub mode), the bytes counted on disk.
@Suite struct CLINoOpSyncWriteTests {
    let metube = ProductBinary.url("metube")
    /// The most a sync of 2,000 channels that brings nothing new may write to the store.
    static let bound = 4_096

    @Test(.timeLimit(.minutes(2))) func aDirectSyncOf2000UnchangedFeedsWritesAtMost4KB() async throws {
        // Given a store following 2,000 channels, synced once from feeds that answer 304 to their ETag
        let directory = TemporaryDirectory("metube-noop-direct")
        defer { directory.remove() }
        let (server, url) = await BackgroundService.serve(Self.conditionalFeeds(), label: "conditional-feeds")
        defer { server.stop() }
        let channels = FailingFeedServer.channelIDs(2_000)
        try Store.open(at: directory.url).apply(StoreChange(channels: channels.map { Channel(id: $0) }))
        try "[hub]\nfeed-url-template = \"\(url)/feeds/videos.xml?channel_id={channelId}\"\nconcurrency = 16\nrate = 1000\nbackfill = 0\n[download]\ncommand = \"\"\n"
            .write(toFile: directory.path("config.toml"), atomically: true, encoding: .utf8)
        let arguments = ["sync", "--direct", "--data-dir", directory.url.path, "--config", directory.path("config.toml")]
        let environment = ["XDG_CONFIG_HOME": directory.path("config"), "XDG_STATE_HOME": directory.path("state")]
        let first = try await runProcessOffPool(metube, arguments, environment: environment)
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
        #expect(try Store.open(at: directory.url).library().videos.count == 2_000)

        // When it syncs again and nothing changed
        let before = try StoreDirectoryWrites(directory.url)
        let second = try await runProcessOffPool(metube, arguments, environment: environment)

        // Then it wrote at most 4 KB to the store, and the store still knows every feed's ETag
        #expect(second.status == 0, "\(second.stdout) \(second.stderr)")
        let written = try before.bytesWritten()
        #expect(written <= Self.bound, "\(written) bytes written")
        let sync = try Store.open(at: directory.url).syncSnapshot()
        #expect(sync.channelFetches.count == 2_000 && sync.channelFetches.values.allSatisfy { $0.etag != nil })
    }

    @Test(.timeLimit(.minutes(2))) func aHubSyncOf2000ChannelsWithNothingNewWritesAtMost4KB() async throws {
        // Given a real metube-server and a store following 2,000 channels, synced once
        let directory = TemporaryDirectory("metube-noop-hub")
        defer { directory.remove() }
        let server = try await ServerProcess.launch(
            ["serve", "--port", "0", "--poll-interval", "0", "--register-limit", "0", "--database", directory.path("hub.sqlite")], within: .seconds(30))
        defer { server.stop() }
        try Store.open(at: directory.url).apply(StoreChange(channels: FailingFeedServer.channelIDs(2_000).map { Channel(id: $0) }))
        let arguments = ["sync", "--hub-url", server.baseURL, "--data-dir", directory.url.path, "--config", directory.path("none.toml")]
        let environment = ["XDG_CONFIG_HOME": directory.path("config"), "XDG_STATE_HOME": directory.path("state")]
        let first = try await runProcessOffPool(metube, arguments, environment: environment)
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")

        // When it syncs again and the hub has nothing new
        let before = try StoreDirectoryWrites(directory.url)
        let second = try await runProcessOffPool(metube, arguments, environment: environment)

        // Then it wrote at most 4 KB to the store, and the hub's acknowledgement of every channel is kept
        #expect(second.status == 0, "\(second.stdout) \(second.stderr)")
        let written = try before.bytesWritten()
        #expect(written <= Self.bound, "\(written) bytes written")
        #expect(try Store.open(at: directory.url).syncSnapshot().hubRegisteredChannelIDs.count == 2_000)
    }

    /// Feeds of one upload per channel, with an ETag; a request that sends it back gets 304.
    static func conditionalFeeds() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/feeds/videos.xml") { request, _ -> Response in
            let channelID = request.uri.queryParameters.get("channel_id") ?? ""
            let etag = "\"\(channelID)\""
            if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified) }
            let body = ByteBuffer(string: FailingFeedServer.feed(for: channelID))
            return Response(status: .ok, headers: [.contentType: "application/atom+xml", .eTag: etag], body: .init(byteBuffer: body))
        }
        return router
    }
}

/// The files of a store directory as they were, to count what a process then wrote there: a file
/// that grew in place (a journal append) counts its growth, a new or replaced file (a snapshot, a
/// state file renamed over the old one) its whole size.
struct StoreDirectoryWrites {
    private struct Seen: Equatable {
        var inode: UInt64
        var size: Int
        var modified: Date
    }

    private let directory: URL
    private let before: [String: Seen]

    init(_ directory: URL) throws {
        self.directory = directory
        before = try Self.files(in: directory)
    }

    /// The bytes written since this was made.
    func bytesWritten() throws -> Int {
        try Self.files(in: directory).reduce(0) { total, entry in
            guard let old = before[entry.key] else { return total + entry.value.size }
            if old == entry.value { return total }
            if old.inode == entry.value.inode, entry.value.size > old.size { return total + entry.value.size - old.size }
            return total + entry.value.size
        }
    }

    private static func files(in directory: URL) throws -> [String: Seen] {
        var files: [String: Seen] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return files }
        for case let name as String in enumerator {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files[name] = Seen(inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0, size: (attributes[.size] as? NSNumber)?.intValue ?? 0,
                               modified: attributes[.modificationDate] as? Date ?? .distantPast)
        }
        return files
    }
}
