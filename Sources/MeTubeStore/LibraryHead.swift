import Foundation
import MeTubeCore
import MeTubeJSON

/// The newest part of a store's library, read without parsing the whole of it: what a first screen
/// or `metube list --limit 100` needs.
///
/// Compaction writes `head.json` beside the snapshots: every channel, the newest videos in feed
/// order (without descriptions), their marks, and the identities (device, inode, size, change
/// time) of the snapshots it was cut from, sealed with a checksum of its own content as journal
/// lines are. It is derived and never the only copy of anything: it is used only while its checksum
/// matches and all three snapshots are exactly the files it was cut from, and is otherwise ignored
/// (the full open is then the answer) until the next compaction writes it anew. The journals
/// written since are replayed over it as over the snapshots.
public struct LibraryHead: Sendable {
    /// The newest videos of the library (journal included), their channels and marks. When
    /// ``isWholeLibrary`` is false, it holds exactly the library's first videos in feed order, up
    /// to a boundary: rows a query takes from it are the first rows the full library gives.
    public var library: Library
    /// The sync state (journal included).
    public var sync: SyncSnapshot
    /// Whether ``library`` is the whole library.
    public var isWholeLibrary: Bool
    /// How many videos the snapshot holds in all (before the journal).
    public var snapshotVideoCount: Int

    /// The rows `query` selects, when the head alone can answer: at most `limit` rows, and `nil`
    /// when the head holds fewer matching rows than `limit` (more may lie past its boundary), or
    /// for the `upcoming` view of part of the library.
    public func rows(_ query: FeedQuery, statusesKnown: Bool, limit: Int) -> [FeedRow]? {
        let rows = query.rows(in: library, statusesKnown: statusesKnown, limit: limit)
        // The upcoming view is ordered by start, not by publication: the head alone cannot know
        // that no older video starts sooner.
        return (rows.count >= limit && query.filter != .upcoming) || isWholeLibrary ? rows : nil
    }
}

extension Store {
    /// How many of the newest videos `head.json` holds: several screenfuls under any filter, and
    /// a few milliseconds to read.
    static let headVideoLimit = 2_000

    /// The file name of the derived head (see ``LibraryHead``).
    static let headFileName = "head.json"

    /// Reads the newest part of the store in `directory` from `head.json` and the journals, without
    /// reading the large snapshots; `nil` when that cannot be answered exactly (no head yet, a
    /// snapshot replaced since it was cut, a journal line that needs the whole library or that is
    /// damaged): the caller then opens the store. Never writes, and holds the read lock only while
    /// reading.
    public static func readHead(at directory: URL, options: StoreOptions = StoreOptions()) -> LibraryHead? {
        let lock = FileLock(path: directory.appendingPathComponent("lock").path)
        return try? lock.withReadLock(timeout: options.lockTimeout) { (_: Bool) throws(StoreError) -> LibraryHead? in
            try HeadReader(directory: directory.path).read()
        }
    }

    /// Writes `head.json` for snapshots just switched in. Best effort: the head is derived, and a
    /// head that could not be written is simply out of date, which readers notice.
    func writeHead(of library: Library, generation: Int) {
        var identities: [StorePart: FileIdentity] = [:]
        for part in StorePart.allCases {
            guard let identity = FileIO.identity(directory.appendingPathComponent(part.fileName).path) else { return }
            identities[part] = identity
        }
        var object = Data()
        var writer = StoreJSONWriter { piece in
            object.append(contentsOf: piece)
            return nil
        }
        guard (try? SnapshotEncoding.writeHead(library, videoLimit: Self.headVideoLimit, generation: generation, identities: identities, to: &writer)) != nil else { return }
        try? FileIO.replaceAtomically(directory.appendingPathComponent(Self.headFileName).path, with: LineChecksum.seal(object))
    }

    /// What `head.json` in `directory` is worth, for `metube doctor`.
    public static func headCondition(at directory: URL) -> HeadCondition {
        guard let data = try? FileIO.read(directory.appendingPathComponent(headFileName).path) else { return .missing }
        guard LineChecksum.verify(data) == .valid else { return .damaged }
        guard let head = try? HeadReader.decode(data), head.isCurrent(in: directory.path) else { return .outOfDate }
        return .current
    }
}

/// What `head.json` is worth (see ``Store/headCondition(at:)``).
public enum HeadCondition: Sendable, Equatable {
    /// There is none yet (a store never compacted).
    case missing
    /// Its content does not match its checksum: it is ignored, and the next compaction writes it anew.
    case damaged
    /// The snapshots it was cut from have been replaced (or it was written by another schema): it is
    /// ignored until the next compaction.
    case outOfDate
    /// It matches its checksum and the current snapshots: a first screen is read from it.
    case current
}

/// Reads `head.json` and replays the journals over it (see ``Store/readHead(at:options:)``).
private struct HeadReader {
    let directory: String

    struct HeadFile {
        var schemaVersion = 0
        var generation = 0
        var totalVideos = 0
        var derivedFrom: [String: String] = [:]
        var videoIDs: VideoIDFilter?
        var channels: [Channel] = []
        var videos: [Video] = []
        var marks: [Mark] = []

        /// Whether this head was written by this schema and cut from exactly the snapshots now in
        /// `directory`.
        func isCurrent(in directory: String) -> Bool {
            schemaVersion == currentSchemaVersion
                && StorePart.allCases.allSatisfy { FileIO.identity("\(directory)/\($0.fileName)")?.token == derivedFrom[$0.fileName] }
        }
    }

    func read() throws(StoreError) -> LibraryHead? {
        guard let data = try FileIO.read("\(directory)/\(Store.headFileName)"),
              LineChecksum.verify(data) == .valid,
              let head = try? Self.decode(data),
              head.isCurrent(in: directory),
              let syncData = try FileIO.read("\(directory)/\(StorePart.sync.fileName)"),
              let syncFile = Self.decodeSync(syncData),
              syncFile.generation == head.generation
        else { return nil }
        let boundary = head.videos.count >= head.totalVideos ? nil : head.videos.last
        guard boundary != nil || head.videos.count == head.totalVideos else { return nil }
        return try replay(head, sync: syncFile.sync, boundary: boundary)
    }

    /// Applies the journals since the head's generation; `nil` when a line cannot be applied to the
    /// head alone: a video the head does not hold, and that the snapshot may hold (the line does not
    /// say the library lacked it when written, and the snapshot's id filter says it may be there),
    /// lands inside the head's range (the merge would keep fields of the snapshot's copy), or a line
    /// is damaged, torn or newer.
    private func replay(_ head: HeadFile, sync: SyncSnapshot, boundary: Video?) throws(StoreError) -> LibraryHead? {
        var state = StoreState(sync: sync)
        state.library = Library(channels: head.channels, videos: head.videos, marks: head.marks)
        for part in StorePart.allCases { state.generations[part] = head.generation }
        let journal = Journal(directory: directory)
        for generation in journal.generations() where generation >= head.generation {
            let result = try journal.read(generation, from: 0)
            guard result.damagedLines.isEmpty, result.notes.isEmpty, result.incompleteTailBytes == 0, !result.hasNewerSchema else { return nil }
            if let boundary {
                for change in result.changes {
                    let added = Set(change.addedVideoIDs)
                    for video in change.videos where state.library.video(video.id) == nil && !Library.feedOrder(boundary, video) && !added.contains(video.id) {
                        guard let ids = head.videoIDs, !ids.mayContain(video.id) else { return nil }
                    }
                }
            }
            state.apply(result.changes, journalGeneration: generation)
        }
        var library = state.library
        if let boundary {
            let inside = library.videos.filter { !Library.feedOrder(boundary, $0) }
            library = Library(channels: Array(library.channels.values), videos: inside, markTable: library.marks)
        }
        return LibraryHead(library: library, sync: state.sync, isWholeLibrary: boundary == nil, snapshotVideoCount: head.totalVideos)
    }

    /// `sync.json` read with the scanner, which takes a fraction of `JSONDecoder`'s time over 2,000
    /// channels' fetch results; `nil` when a field is not understood (the full open then reads it).
    private static func decodeSync(_ data: Data) -> SyncFile? {
        var notes = FieldNotes()
        guard let file = try? SnapshotDecoding.syncFile(data, notes: &notes), notes.isEmpty else { return nil }
        return file
    }

    static func decode(_ data: Data) throws(JSONScanner.Failure) -> HeadFile {
        var notes = FieldNotes()
        let file = try SnapshotDecoding.scan(data) { (scanner: inout JSONScanner) throws(JSONScanner.Failure) in
            var file = HeadFile()
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(JSONScanner.Failure) in
                switch key {
                case "schemaVersion": file.schemaVersion = Int(try scanner.readInt())
                case "generation": file.generation = Int(try scanner.readInt())
                case "totalVideos": file.totalVideos = Int(try scanner.readInt())
                case "videoIDFilter": file.videoIDs = VideoIDFilter(base64: try scanner.readString())
                case "derivedFrom":
                    try scanner.readObject { (scanner: inout JSONScanner, name: String) throws(JSONScanner.Failure) in
                        file.derivedFrom[name] = try scanner.readString()
                    }
                case "channels":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(JSONScanner.Failure) in
                        if let channel = try SnapshotDecoding.channel(&scanner, &notes) { file.channels.append(channel) }
                    }
                case "videos":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(JSONScanner.Failure) in
                        if let video = try SnapshotDecoding.video(&scanner, &notes, descriptions: .skip) { file.videos.append(video) }
                    }
                case "marks":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(JSONScanner.Failure) in
                        if let mark = try SnapshotDecoding.mark(&scanner, &notes) { file.marks.append(mark) }
                    }
                default: try scanner.skipValue()
                }
            }
            return file
        }
        guard notes.isEmpty else { throw JSONScanner.Failure(offset: -1, reason: notes.summary) }
        return file
    }
}
