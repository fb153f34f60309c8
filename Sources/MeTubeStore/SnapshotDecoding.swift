import Foundation
import MeTubeCore

/// Fast decoding of the two large snapshots with ``JSONScanner``; the format is the one
/// `JSONEncoder` writes for ``LibraryFile`` and ``MarksFile``.
enum SnapshotDecoding {
    typealias Failure = JSONScanner.Failure

    static func library(_ data: Data) throws(Failure) -> LibraryFile {
        try scan(data) { (scanner: inout JSONScanner) throws(Failure) in
            var file = LibraryFile(schemaVersion: 0, generation: 0, channels: [], videos: [])
            file.videos.reserveCapacity(data.count / 220)
            var channelIDs: [String: String] = [:]
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
                switch key {
                case "schemaVersion": file.schemaVersion = Int(try scanner.readInt())
                case "generation": file.generation = Int(try scanner.readInt())
                case "channels":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
                        let channel = try channel(&scanner)
                        channelIDs[channel.id] = channel.id
                        file.channels.append(channel)
                    }
                case "videos":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
                        var video = try video(&scanner)
                        if let shared = channelIDs[video.channelID] { video.channelID = shared }
                        file.videos.append(video)
                    }
                default: try scanner.skipValue()
                }
            }
            return file
        }
    }

    static func marks(_ data: Data) throws(Failure) -> MarksFile {
        var marks: [Mark] = []
        let header = try scanMarks(data) { marks.append($0) }
        return MarksFile(schemaVersion: header.schemaVersion, generation: header.generation, marks: marks)
    }

    /// Reads a marks snapshot, handing each mark to `each` as it is read (so a caller can build its
    /// table without an intermediate array); returns the file's schema version and generation.
    static func scanMarks(_ data: Data, _ each: (Mark) -> Void) throws(Failure) -> (schemaVersion: Int, generation: Int) {
        try scan(data) { (scanner: inout JSONScanner) throws(Failure) in
            var header = (schemaVersion: 0, generation: 0)
            var deviceIDs: [String: String] = [:]
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
                switch key {
                case "schemaVersion": header.schemaVersion = Int(try scanner.readInt())
                case "generation": header.generation = Int(try scanner.readInt())
                case "marks":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
                        var mark = try mark(&scanner)
                        if let shared = deviceIDs[mark.deviceID] { mark.deviceID = shared } else { deviceIDs[mark.deviceID] = mark.deviceID }
                        each(mark)
                    }
                default: try scanner.skipValue()
                }
            }
            return header
        }
    }

    /// Decodes one journal line; returns the change and the schema version that wrote it.
    static func change(_ data: Data) throws(Failure) -> (StoreChange, Int) {
        var syncRange: Range<Int>?
        let (change, schemaVersion) = try scan(data) { (scanner: inout JSONScanner) throws(Failure) in
            var change = StoreChange()
            var schemaVersion = 0
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
                switch key {
                case "v": schemaVersion = Int(try scanner.readInt())
                case "marks": try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in change.marks.append(try mark(&scanner)) }
                case "videos": try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in change.videos.append(try video(&scanner)) }
                case "channels": try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in change.channels.append(try channel(&scanner)) }
                case "removedChannelIDs": try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in change.removedChannelIDs.append(try scanner.readString()) }
                case "removedMarkIDs": try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in change.removedMarkIDs.append(try scanner.readString()) }
                case "sync": syncRange = try scanner.skipValueRange()
                default: try scanner.skipValue()
                }
            }
            return (change, schemaVersion)
        }
        guard let syncRange else { return (change, schemaVersion) }
        var withSync = change
        do {
            let bytes = data[(data.startIndex + syncRange.lowerBound)..<(data.startIndex + syncRange.upperBound)]
            withSync.sync = try StoreCoding.decoder().decode(SyncSnapshot.self, from: bytes)
        } catch {
            throw Failure(offset: syncRange.lowerBound, reason: "bad sync state: \(error)")
        }
        return (withSync, schemaVersion)
    }

    private static func scan<T>(_ data: Data, _ body: (inout JSONScanner) throws(Failure) -> T) throws(Failure) -> T {
        let result: Result<T, Failure> = data.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw.bindMemory(to: UInt8.self))
            do throws(Failure) {
                let value = try body(&scanner)
                try scanner.expectEnd()
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func missing(_ field: String, in type: String) -> Failure {
        Failure(offset: -1, reason: "\(type) without \(field)")
    }

    private static func optionalString(_ scanner: inout JSONScanner) throws(Failure) -> String? {
        try scanner.consumeNull() ? nil : try scanner.readString()
    }

    private static func date(_ scanner: inout JSONScanner) throws(Failure) -> Date {
        Date(timeIntervalSince1970: try scanner.readDouble())
    }

    static func channel(_ scanner: inout JSONScanner) throws(Failure) -> Channel {
        var id: String?
        var channel = Channel(id: "", addedAt: Date(timeIntervalSince1970: 0))
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch key {
            case "id": id = try scanner.readString()
            case "title": channel.title = try optionalString(&scanner)
            case "thumbnailURL": channel.thumbnailURL = try optionalString(&scanner)
            case "addedAt": channel.addedAt = try date(&scanner)
            default: try scanner.skipValue()
            }
        }
        guard let id else { throw missing("id", in: "channel") }
        channel.id = id
        return channel
    }

    static func video(_ scanner: inout JSONScanner) throws(Failure) -> Video {
        var id: String?, channelID: String?, title: String?, published: Date?
        var duration: Int?, description: String?, thumbnailURL: String?, hubSeq: Int64?, isShortLink = false
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch key {
            case "id": id = try scanner.readString()
            case "channelID": channelID = try scanner.readString()
            case "title": title = try scanner.readString()
            case "published": published = try date(&scanner)
            case "duration": duration = try scanner.consumeNull() ? nil : Int(try scanner.readInt())
            case "description": description = try optionalString(&scanner)
            case "thumbnailURL": thumbnailURL = try optionalString(&scanner)
            case "hubSeq": hubSeq = try scanner.consumeNull() ? nil : try scanner.readInt()
            case "isShortLink": isShortLink = try scanner.readBool()
            default: try scanner.skipValue()
            }
        }
        guard let id, let channelID, let title, let published else { throw missing("id, channelID, title or published", in: "video") }
        return Video(id: id, channelID: channelID, title: title, published: published, duration: duration,
                     description: description, thumbnailURL: thumbnailURL, hubSeq: hubSeq, isShortLink: isShortLink)
    }

    private static func timestamp(_ scanner: inout JSONScanner) throws(Failure) -> HybridTimestamp {
        var timestamp = HybridTimestamp(millis: 0)
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch key {
            case "millis": timestamp.millis = try scanner.readInt()
            case "counter": timestamp.counter = UInt32(clamping: try scanner.readInt())
            default: try scanner.skipValue()
            }
        }
        return timestamp
    }

    private static func status(_ scanner: inout JSONScanner) throws(Failure) -> WatchStatus {
        let text = try scanner.readString()
        guard let status = WatchStatus(rawValue: text) else { throw Failure(offset: -1, reason: "unknown status \(text)") }
        return status
    }

    private static func serverVersion(_ scanner: inout JSONScanner) throws(Failure) -> ServerVersion? {
        if try scanner.consumeNull() { return nil }
        var changeTag: String?, status: WatchStatus?, hlc: HybridTimestamp?, deviceID: String?
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch key {
            case "changeTag": changeTag = try scanner.readString()
            case "status": status = try Self.status(&scanner)
            case "hlc": hlc = try scanner.consumeNull() ? nil : try timestamp(&scanner)
            case "deviceID": deviceID = try optionalString(&scanner)
            default: try scanner.skipValue()
            }
        }
        guard let changeTag, let status else { throw missing("changeTag or status", in: "server version") }
        return ServerVersion(changeTag: changeTag, status: status, hlc: hlc, deviceID: deviceID)
    }

    static func mark(_ scanner: inout JSONScanner) throws(Failure) -> Mark {
        var videoID: String?, status: WatchStatus?, hlc: HybridTimestamp?, deviceID: String?
        var syncState = SyncState.pending, base: ServerVersion?, theirs: ServerVersion?
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch key {
            case "videoID": videoID = try scanner.readString()
            case "status": status = try Self.status(&scanner)
            case "hlc": hlc = try timestamp(&scanner)
            case "deviceID": deviceID = try scanner.readString()
            case "syncState":
                let text = try scanner.readString()
                guard let state = SyncState(rawValue: text) else { throw Failure(offset: -1, reason: "unknown sync state \(text)") }
                syncState = state
            case "base": base = try serverVersion(&scanner)
            case "theirs": theirs = try serverVersion(&scanner)
            default: try scanner.skipValue()
            }
        }
        guard let videoID, let status, let hlc, let deviceID else { throw missing("videoID, status, hlc or deviceID", in: "mark") }
        return Mark(videoID: videoID, status: status, hlc: hlc, deviceID: deviceID, syncState: syncState, base: base, theirs: theirs)
    }
}
