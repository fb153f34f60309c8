import Foundation
import MeTubeCore

/// Encodes the snapshot files written by compaction and restore. The two large ones are written
/// by ``JSONWriter`` straight into bytes (what `JSONEncoder` would write, without its intermediate
/// tree, so compaction stays fast and small); the sync state goes through `JSONEncoder`.
enum SnapshotEncoding {
    /// The three snapshot files for `library` and `sync`, all claiming `generation`.
    static func files(library: Library, sync: SyncSnapshot, generation: Int) throws(StoreError) -> [(StorePart, Data)] {
        let syncData: Data
        do {
            syncData = try StoreCoding.encoder().encode(SyncFile(schemaVersion: currentSchemaVersion, generation: generation, sync: sync))
        } catch {
            throw .writeFailed(path: StorePart.sync.fileName, reason: "could not encode: \(error)")
        }
        return [(.library, libraryData(library, generation: generation)), (.marks, marksData(library.marks, positions: library.playbackPositions, generation: generation)), (.sync, syncData)]
    }

    private static func libraryData(_ library: Library, generation: Int) -> Data {
        var writer = JSONWriter(capacity: library.videos.count * 260 + library.channels.count * 120)
        writer.object {
            $0.field("schemaVersion", currentSchemaVersion)
            $0.field("generation", generation)
            $0.key("channels")
            $0.array(library.channels.values.sorted { $0.id < $1.id }, channel)
            $0.key("videos")
            $0.array(library.videos, video)
        }
        return writer.data
    }

    private static func marksData(_ marks: MarkTable, positions: [String: PlaybackPosition], generation: Int) -> Data {
        var writer = JSONWriter(capacity: marks.count * 160)
        writer.object {
            $0.field("schemaVersion", currentSchemaVersion)
            $0.field("generation", generation)
            $0.key("marks")
            $0.array(marks.values.sorted { $0.videoID < $1.videoID }, mark)
            if !positions.isEmpty {
                $0.key("positions")
                $0.array(positions.values.sorted { $0.videoID < $1.videoID }) { writer, position in writer.position(position) }
            }
        }
        return writer.data
    }

    /// `head.json`: the newest `videoLimit` videos, every channel, and those videos' marks, stamped
    /// with the identities of the snapshots it was cut from (see ``LibraryHead``).
    static func headData(_ library: Library, videoLimit: Int, generation: Int, identities: [StorePart: FileIdentity]) -> Data {
        let videos = library.videos.prefix(videoLimit)
        var writer = JSONWriter(capacity: videos.count * 420 + library.channels.count * 120 + 512)
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
            $0.array(videos, video)
            $0.key("marks")
            $0.array(videos.compactMap { library.marks[$0.id] }, mark)
        }
        return writer.data
    }

    private static func videoIDFilter(_ library: Library) -> VideoIDFilter {
        var filter = VideoIDFilter(capacity: library.videos.count)
        for video in library.videos { filter.insert(video.id) }
        return filter
    }

    private static func channel(_ writer: inout JSONWriter, _ channel: Channel) {
        writer.object {
            $0.field("id", channel.id)
            $0.field("title", channel.title)
            $0.field("thumbnailURL", channel.thumbnailURL)
            $0.field("addedAt", channel.addedAt.timeIntervalSince1970)
        }
    }

    private static func video(_ writer: inout JSONWriter, _ video: Video) {
        writer.object {
            $0.field("id", video.id)
            $0.field("channelID", video.channelID)
            $0.field("title", video.title)
            $0.field("published", video.published.timeIntervalSince1970)
            $0.field("duration", video.duration)
            $0.field("description", video.description)
            $0.field("thumbnailURL", video.thumbnailURL)
            $0.field("hubSeq", video.hubSeq)
            $0.field("isShortLink", video.isShortLink)
        }
    }

    private static func mark(_ writer: inout JSONWriter, _ mark: Mark) {
        writer.object {
            $0.field("videoID", mark.videoID)
            $0.field("status", mark.status.rawValue)
            $0.key("hlc")
            $0.timestamp(mark.hlc)
            $0.field("deviceID", mark.deviceID)
            $0.field("syncState", mark.syncState.rawValue)
            $0.serverVersion("base", mark.base)
            $0.serverVersion("theirs", mark.theirs)
        }
    }
}

/// Writes JSON into a byte buffer. Optional fields that are `nil` are left out, as `JSONEncoder` does.
struct JSONWriter {
    private var bytes: [UInt8]
    private var needsComma = false

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    var data: Data { Data(bytes) }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<Element>(_ elements: some Sequence<Element>, _ body: (inout JSONWriter, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements {
            if needsComma { bytes.append(UInt8(ascii: ",")) }
            body(&self, element)
        }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    mutating func key(_ name: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func field(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
        needsComma = true
    }

    mutating func field(_ name: String, _ value: (some BinaryInteger)?) {
        guard let value else { return }
        key(name)
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func field(_ name: String, _ value: Double) {
        let value = StoreCoding.writable(value)
        key(name)
        bytes.append(contentsOf: (value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)").utf8)
        needsComma = true
    }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    mutating func timestamp(_ value: HybridTimestamp) {
        object {
            $0.field("counter", value.counter)
            $0.field("millis", value.millis)
        }
    }

    /// A playback position as `JSONEncoder` would write it (sorted keys, no nil fields).
    mutating func position(_ position: PlaybackPosition) {
        object {
            $0.field("deviceID", position.deviceID)
            if let duration = position.duration { $0.field("duration", duration) }
            $0.key("hlc")
            $0.timestamp(position.hlc)
            $0.field("seconds", position.seconds)
            $0.field("syncState", position.syncState.rawValue)
            $0.field("videoID", position.videoID)
        }
    }

    mutating func serverVersion(_ name: String, _ version: ServerVersion?) {
        guard let version else { return }
        key(name)
        object {
            $0.field("changeTag", version.changeTag)
            $0.field("status", version.status.rawValue)
            if let hlc = version.hlc {
                $0.key("hlc")
                $0.timestamp(hlc)
            }
            $0.field("deviceID", version.deviceID)
        }
    }

    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
