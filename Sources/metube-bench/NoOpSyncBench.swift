import Foundation
import Hummingbird
import MeTubeCore
import MeTubeStore
import NIOCore
import TestSupport

/// The bytes a direct sync of 2,000 channels that brings nothing new writes to the store: a store
/// synced once from a loopback feed server that sends an ETag with each feed and 304 to a request
/// that sends it back, then synced again in `metube-bench-probe`.
func noOpDirectSyncFigure(library: SyntheticLibrary, folder: URL, entries: Int) async throws -> Figure {
    let channels = library.channels()
    let (server, url) = await serveConditionalFeeds(library, channels: channels, entries: entries)
    defer { server.stop() }
    let store = folder.appendingPathComponent("direct-noop", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: store) }
    try Store.open(at: store).apply(StoreChange(channels: channels.map { MeTubeCore.Channel(id: $0.id) }))
    _ = try await runProbeOnThread(["sync", "direct", store.path, "\(url)/feeds/{channelId}"])
    let bytes = try await bytesWritten(to: store) { _ = try await runProbeOnThread(["sync", "direct", store.path, "\(url)/feeds/{channelId}"]) }
    return noOpFigure(mode: "direct", channels: channels.count, bytes: bytes, detail: "second direct sync, every feed answering 304 to its ETag")
}

/// The figure of a sync that brought nothing new and wrote `bytes` to the store.
func noOpFigure(mode: String, channels: Int, bytes: Int, detail: String) -> Figure {
    Figure(name: "sync.\(mode).no-op.bytes-written.\(channels)-channels", value: Double(bytes), unit: "B", goal: "<= 4096",
           detail: "\(detail); bytes appended to the journal plus whole files written, in the store's directory")
}

/// The bytes `body` writes to the store in `directory`: a file that grew in place (a journal
/// append) counts its growth, a new or replaced one (renamed over the old) its whole size.
func bytesWritten(to directory: URL, by body: () async throws -> Void) async throws -> Int {
    func files() -> [String: (inode: UInt64, size: Int, modified: Date)] {
        var files: [String: (inode: UInt64, size: Int, modified: Date)] = [:]
        for case let name as String in FileManager.default.enumerator(atPath: directory.path) ?? FileManager.DirectoryEnumerator() {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            files[name] = ((attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0, (attributes[.size] as? NSNumber)?.intValue ?? 0,
                           attributes[.modificationDate] as? Date ?? .distantPast)
        }
        return files
    }
    let before = files()
    try await body()
    return files().reduce(0) { total, entry in
        guard let old = before[entry.key] else { return total + entry.value.size }
        if old.inode == entry.value.inode, old.size == entry.value.size, old.modified == entry.value.modified { return total }
        if old.inode == entry.value.inode, entry.value.size > old.size { return total + entry.value.size - old.size }
        return total + entry.value.size
    }
}

/// ``serveSyntheticFeeds(_:channels:entries:)`` with an ETag on each feed, answering 304 to a
/// request that sends it back.
private func serveConditionalFeeds(_ library: SyntheticLibrary, channels: [MeTubeCore.Channel], entries: Int) async -> (service: BackgroundService, url: String) {
    let feeds = Dictionary(uniqueKeysWithValues: channels.enumerated().map { index, channel in
        (channel.id, ByteBuffer(string: syntheticAtomFeed(channel: channel, videos: (0..<entries).map { library.video($0 * channels.count + index) })))
    })
    let router = Router()
    router.get("/feeds/:channelId") { request, context -> Response in
        let channelID = try context.parameters.require("channelId")
        guard let feed = feeds[channelID] else { return Response(status: .notFound) }
        let etag = "\"\(channelID)-1\""
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified) }
        return Response(status: .ok, headers: [.contentType: "application/atom+xml", .eTag: etag], body: .init(byteBuffer: feed))
    }
    return await BackgroundService.serve(router, label: "bench-conditional-feeds")
}
