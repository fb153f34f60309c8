import Foundation
import MeTubeCore

/// Encodes the snapshot files written by compaction and restore. The two large ones are written
/// by ``JSONWriter`` straight into a bounded buffer that is flushed to the file as it fills (what
/// `JSONEncoder` would write, without its intermediate tree or the whole document in memory, so
/// compaction stays fast and small at any size); the sync state goes through `JSONEncoder`.
enum SnapshotEncoding {
    /// Writes snapshot `part` of `library` and `sync`, claiming `generation`, through `writer`,
    /// and finishes it; throws the first failure to encode or to write.
    static func write(
        _ part: StorePart, of library: Library, sync: SyncSnapshot, generation: Int, descriptions: DescriptionLiterals = .none, to writer: inout StoreJSONWriter
    ) throws(StoreError) {
        switch part {
        case .library: try writeLibrary(library, generation: generation, descriptions: descriptions, to: &writer)
        case .marks: writeMarks(library.marks, positions: library.playbackPositions, queue: library.queue, generation: generation, to: &writer)
        case .sync:
            do {
                writer.encoded(try StoreCoding.encoder().encode(SyncFile(schemaVersion: currentSchemaVersion, generation: generation, sync: sync)))
            } catch {
                throw .writeFailed(path: StorePart.sync.fileName, reason: "could not encode: \(error)")
            }
        }
        try writer.finish()
    }

    /// One journal line's JSON object for `change`, unsealed: `JSONEncoder`'s encoding (sorted
    /// keys) of everything but the marks and videos, then those two, most of a bulk mark's or a
    /// sync's line, written by ``JSONWriter`` as in `marks.json` and `library.json` (the same
    /// fields, so every version reads them). Also returns, by the index of its video, the byte
    /// range of each description literal in the object.
    static func change(_ change: StoreChange, descriptions: DescriptionLiterals = .none) throws -> (object: Data, descriptionRanges: [Int: Range<Int>]) {
        var rest = change
        rest.videos = []
        rest.marks = []
        var object = try StoreCoding.encoder().encode(rest)
        guard !change.videos.isEmpty || !change.marks.isEmpty, object.last == UInt8(ascii: "}") else { return (object, [:]) }
        object[object.index(before: object.endIndex)] = UInt8(ascii: ",")
        let base = object.count
        var writer = StoreJSONWriter { piece in
            object.append(contentsOf: piece)
            return nil
        }
        if !change.marks.isEmpty {
            writer.key("marks")
            writer.array(change.marks, mark)
        }
        var ranges: [Int: Range<Int>] = [:]
        if !change.videos.isEmpty {
            writer.key("videos")
            writer.array(change.videos.indices) { writer, index in
                if let range = video(&writer, change.videos[index], descriptions) {
                    ranges[index] = (base + range.lowerBound)..<(base + range.upperBound)
                }
            }
        }
        try writer.finish()
        object.append(UInt8(ascii: "}"))
        return (object, ranges)
    }

    private static func writeLibrary(_ library: Library, generation: Int, descriptions: DescriptionLiterals, to writer: inout StoreJSONWriter) throws(StoreError) {
        let subscriptions = try subscriptionsJSON(library)
        writer.object {
            $0.field("schemaVersion", currentSchemaVersion)
            $0.field("generation", generation)
            $0.key("channels")
            $0.array(library.channels.values.sorted { $0.id < $1.id }, channel)
            $0.key("videos")
            $0.array(library.videos) { writer, video in Self.video(&writer, video, descriptions) }
            if let subscriptions {
                $0.key("subscriptions")
                $0.encoded(subscriptions)
            }
        }
    }

    /// The library's subscriptions as `JSONEncoder` writes them (a few thousand small values),
    /// `nil` when there are none.
    private static func subscriptionsJSON(_ library: Library) throws(StoreError) -> Data? {
        guard !library.subscriptions.isEmpty else { return nil }
        do {
            return try StoreCoding.encoder().encode(library.subscriptions.values.sorted { $0.channelID < $1.channelID })
        } catch {
            throw .writeFailed(path: StorePart.library.fileName, reason: "could not encode the subscriptions: \(error)")
        }
    }

    private static func writeMarks(_ marks: MarkTable, positions: [String: PlaybackPosition], queue: [String: QueueEntry], generation: Int, to writer: inout StoreJSONWriter) {
        writer.object {
            $0.field("schemaVersion", currentSchemaVersion)
            $0.field("generation", generation)
            $0.key("marks")
            $0.array(marks.values.sorted { $0.videoID < $1.videoID }, mark)
            if !positions.isEmpty {
                $0.key("positions")
                $0.array(positions.values.sorted { $0.videoID < $1.videoID }) { writer, position in writer.position(position) }
            }
            if !queue.isEmpty {
                $0.key("queue")
                $0.array(queue.values.sorted { $0.videoID < $1.videoID }) { writer, entry in writer.queueEntry(entry) }
            }
        }
    }

    /// Writes `head.json` through `writer` and finishes it: the newest `videoLimit` videos, every
    /// channel, and those videos' marks, stamped with the identities of the snapshots it was cut
    /// from (see ``LibraryHead``).
    static func writeHead(_ library: Library, videoLimit: Int, generation: Int, identities: [StorePart: FileIdentity], to writer: inout StoreJSONWriter) throws(StoreError) {
        let videos = library.videos.prefix(videoLimit)
        writer.object {
            $0.field("schemaVersion", currentSchemaVersion)
            $0.field("generation", generation)
            $0.field("totalVideos", library.videos.count)
            $0.key("derivedFrom")
            $0.object { writer in
                for part in StorePart.allCases {
                    guard let identity = identities[part] else { continue }
                    writer.field(part.fileName, identity.token)
                }
            }
            $0.field("videoIDFilter", videoIDFilter(library).base64)
            $0.key("channels")
            $0.array(library.channels.values.sorted { $0.id < $1.id }, channel)
            $0.key("videos")
            $0.array(videos) { writer, video in Self.video(&writer, video, nil) }
            $0.key("marks")
            $0.array(videos.compactMap { library.marks[$0.id] }, mark)
        }
        try writer.finish()
    }

    private static func videoIDFilter(_ library: Library) -> VideoIDFilter {
        var filter = VideoIDFilter(capacity: library.videos.count)
        for video in library.videos { filter.insert(video.id) }
        return filter
    }

    private static func channel(_ writer: inout StoreJSONWriter, _ channel: Channel) {
        typealias Key = Channel.CodingKeys
        writer.object {
            $0.field(Key.id.rawValue, channel.id)
            $0.field(Key.title.rawValue, channel.title)
            $0.field(Key.thumbnailURL.rawValue, channel.thumbnailURL)
            $0.field(Key.addedAt.rawValue, channel.addedAt.timeIntervalSince1970)
            $0.field(Key.tags.rawValue, channel.tags)
        }
    }

    /// Writes `video`; its description (text, or copied from where a reference points) unless
    /// `descriptions` is `nil`. Returns the byte range of the description literal, in the
    /// writer's offsets, when one was written.
    @discardableResult
    private static func video(_ writer: inout StoreJSONWriter, _ video: Video, _ descriptions: DescriptionLiterals?) -> Range<Int>? {
        var range: Range<Int>?
        typealias Key = Video.CodingKeys
        writer.object {
            $0.field(Key.id.rawValue, video.id)
            $0.field(Key.channelID.rawValue, video.channelID)
            $0.field(Key.title.rawValue, video.title)
            $0.field(Key.published.rawValue, video.published.timeIntervalSince1970)
            $0.field(Key.duration.rawValue, video.duration)
            if let descriptions, video.hasDescription {
                range = description(&$0, of: video, descriptions)
            }
            $0.field(Key.thumbnailURL.rawValue, video.thumbnailURL)
            $0.field(Key.hubSeq.rawValue, video.hubSeq)
            $0.field(Key.isShortLink.rawValue, video.isShortLink)
            if video.availability != .available { $0.field(Key.availability.rawValue, video.availability.rawValue) }
            if let start = video.scheduledStart { $0.field(Key.scheduledStart.rawValue, start.timeIntervalSince1970) }
            if let views = video.views { $0.field(Key.views.rawValue, views) }
            if let starRatings = video.starRatings { $0.field(Key.starRatings.rawValue, starRatings) }
        }
        return range
    }

    private static func description(_ writer: inout StoreJSONWriter, of video: Video, _ descriptions: DescriptionLiterals) -> Range<Int>? {
        writer.key(Video.CodingKeys.description.rawValue)
        let start = writer.offset
        if let text = video.description {
            writer.stringValue(text)
        } else if let reference = video.descriptionReference {
            do {
                writer.literal(try descriptions.literal(reference))
            } catch {
                writer.fail(error)
                return nil
            }
        }
        return start..<writer.offset
    }

    private static func mark(_ writer: inout StoreJSONWriter, _ mark: Mark) {
        typealias Key = Mark.CodingKeys
        writer.object {
            $0.field(Key.videoID.rawValue, mark.videoID)
            $0.field(Key.status.rawValue, mark.status.rawValue)
            $0.key(Key.hlc.rawValue)
            $0.timestamp(mark.hlc)
            $0.field(Key.deviceID.rawValue, mark.deviceID)
            $0.field(Key.syncState.rawValue, mark.syncState.rawValue)
            $0.serverVersion(Key.base.rawValue, mark.base)
            $0.serverVersion(Key.theirs.rawValue, mark.theirs)
            $0.field(Key.rule.rawValue, mark.rule)
        }
    }
}
