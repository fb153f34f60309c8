import Foundation

/// Thumbnails on disk, in `$XDG_CACHE_HOME/metube/thumbnails/` (else `~/.cache/…`): one
/// `ID.jpg` a video, with its validators in `ID.etag`. Bounded in bytes; the least recently used
/// go first. Derived: deleting the directory is always safe, the pictures are fetched again.
public actor ThumbnailCache {
    /// The directory.
    public nonisolated let directory: URL
    /// The most bytes of pictures kept.
    public nonisolated let byteLimit: Int
    private var entries: [String: Entry]?
    private var keptVideoID: String?
    private var clock: UInt64 = 0

    private struct Entry {
        var bytes: Int
        var lastUse: UInt64
    }

    /// A cache in `directory` of at most `byteLimit` bytes.
    public init(directory: URL, byteLimit: Int) {
        self.directory = directory
        self.byteLimit = max(byteLimit, 0)
    }

    /// The default directory for `environment`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else {
            base = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".cache")
        }
        return base.appendingPathComponent("metube/thumbnails")
    }

    /// The thumbnail of `videoID`, `nil` when not cached; counts as a use.
    public func read(_ videoID: String) -> CachedThumbnail? {
        guard ThumbnailKey.isValid(videoID) else { return nil }
        loadIndex()
        guard let data = FileManager.default.contents(atPath: picturePath(videoID)) else {
            entries?[videoID] = nil
            return nil
        }
        touch(videoID, bytes: data.count)
        let validators = (FileManager.default.contents(atPath: validatorPath(videoID)).map { String(decoding: $0, as: UTF8.self) } ?? "")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let etag = validators.first.flatMap { $0.isEmpty ? nil : $0 }
        let lastModified = validators.dropFirst().first.flatMap { $0.isEmpty ? nil : $0 }
        return CachedThumbnail(bytes: Array(data), etag: etag, lastModified: lastModified)
    }

    /// Keeps `thumbnail` for `videoID` (written whole, then renamed), first evicting the least
    /// recently used until it fits, so the directory never holds more than the bound.
    public func store(_ thumbnail: CachedThumbnail, for videoID: String) throws(ThumbnailError) {
        guard ThumbnailKey.isValid(videoID) else { throw .unsupportedAddress }
        loadIndex()
        entries?[videoID] = nil
        evict(reserving: thumbnail.bytes.count)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try write(Data(thumbnail.bytes), to: picturePath(videoID))
            let validators = [thumbnail.etag ?? "", thumbnail.lastModified ?? ""].joined(separator: "\n")
            try write(Data(validators.utf8), to: validatorPath(videoID))
        } catch {
            throw .cacheFailed(error.localizedDescription)
        }
        touch(videoID, bytes: thumbnail.bytes.count)
        evict()
    }

    /// Never evicts `videoID`'s thumbnail (the one on screen) while others can go instead, so a
    /// small bound and a page of fetches cannot drop the picture about to be drawn.
    public func keep(_ videoID: String?) {
        keptVideoID = videoID
    }

    /// Forgets `videoID`'s thumbnail (a damaged file, say).
    public func remove(_ videoID: String) {
        guard ThumbnailKey.isValid(videoID) else { return }
        loadIndex()
        try? FileManager.default.removeItem(atPath: picturePath(videoID))
        try? FileManager.default.removeItem(atPath: validatorPath(videoID))
        entries?[videoID] = nil
    }

    /// The bytes of pictures kept now.
    public var totalBytes: Int {
        loadIndex()
        return entries?.values.reduce(0) { $0 + $1.bytes } ?? 0
    }

    private func loadIndex() {
        guard entries == nil else { return }
        var found: [(String, Int, Date)] = []
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        for url in (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? [] {
            guard url.pathExtension == "jpg" else { continue }
            let values = try? url.resourceValues(forKeys: Set(keys))
            found.append((url.deletingPathExtension().lastPathComponent, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast))
        }
        var loaded: [String: Entry] = [:]
        for (videoID, bytes, _) in found.sorted(by: { $0.2 < $1.2 }) {
            clock += 1
            loaded[videoID] = Entry(bytes: bytes, lastUse: clock)
        }
        entries = loaded
        evict()
    }

    private func touch(_ videoID: String, bytes: Int) {
        clock += 1
        entries?[videoID] = Entry(bytes: bytes, lastUse: clock)
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: picturePath(videoID))
    }

    /// Removes the least recently used pictures until they and `reserved` more bytes fit the bound.
    private func evict(reserving reserved: Int = 0) {
        guard var entries else { return }
        var total = entries.values.reduce(0) { $0 + $1.bytes } + reserved
        guard total > byteLimit else { return }
        for (videoID, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where total > byteLimit && videoID != keptVideoID {
            try? FileManager.default.removeItem(atPath: picturePath(videoID))
            try? FileManager.default.removeItem(atPath: validatorPath(videoID))
            entries[videoID] = nil
            total -= entry.bytes
        }
        self.entries = entries
    }

    private func write(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        guard rename(temporary, path) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    private func picturePath(_ videoID: String) -> String { directory.appendingPathComponent(videoID + ".jpg").path }
    private func validatorPath(_ videoID: String) -> String { directory.appendingPathComponent(videoID + ".etag").path }
}
