import Foundation
import MeTubeCore
import MeTubeJSON

/// Fast decoding of the two large snapshots with ``JSONScanner``; the format is the one
/// `JSONEncoder` writes for ``LibraryFile`` and ``MarksFile``.
enum SnapshotDecoding {
    typealias Failure = JSONScanner.Failure

    /// What decoding does with a video's description.
    enum DescriptionHandling {
        /// Reads the text.
        case text
        /// Keeps where the literal lies instead (``DescriptionReference``): in the store file
        /// numbered `file`, whose byte `base` is the first byte scanned.
        case reference(file: UInt32, base: UInt64)
        /// Leaves it out (the head: a first screen shows no descriptions).
        case skip
    }

    /// Reads `library.json`. A field that is well-formed JSON but not understood gets a default, or
    /// leaves its channel or video out, and is counted in `notes`; malformed JSON throws.
    static func library(_ data: Data, notes: inout FieldNotes) throws(Failure) -> LibraryFile {
        try withBytes(data) { (bytes) throws(Failure) in try library(bytes, notes: &notes, descriptions: .text) { _ in } }
    }

    /// Reads `library.json` from `bytes`, handling descriptions as `descriptions` says; calls
    /// `release` now and then with how far it has read (what lies before is not read again).
    static func library(
        _ bytes: UnsafeBufferPointer<UInt8>, notes: inout FieldNotes, descriptions: DescriptionHandling, release: (Int) -> Void
    ) throws(Failure) -> LibraryFile {
        try scan(bytes) { (scanner: inout JSONScanner) throws(Failure) in
            var file = LibraryFile(schemaVersion: 0, generation: 0, channels: [], videos: [], subscriptions: nil)
            file.videos.reserveCapacity(bytes.count / (descriptions.isText ? 220 : 1_200))
            var channelIDs: [String: String] = [:]
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
                switch key {
                case "schemaVersion": file.schemaVersion = try header(&scanner, "schemaVersion", &notes)
                case "generation": file.generation = try header(&scanner, "generation", &notes)
                case "channels":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
                        guard let channel = try channel(&scanner, &notes) else { return }
                        channelIDs[channel.id] = channel.id
                        file.channels.append(channel)
                    }
                case "videos":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
                        guard var video = try video(&scanner, &notes, descriptions: descriptions) else { return }
                        if let shared = channelIDs[video.channelID] { video.channelID = shared }
                        file.videos.append(video)
                        if file.videos.count % 4_096 == 0 { release(scanner.offset) }
                    }
                case "subscriptions": file.subscriptions = try subscriptions(&scanner, { Data(UnsafeBufferPointer(rebasing: bytes[$0])) }, &notes)
                default: try scanner.skipValue()
                }
            }
            return file
        }
    }

    /// Reads `library.json`, failing on any field it does not understand.
    static func library(_ data: Data) throws(Failure) -> LibraryFile {
        var notes = FieldNotes()
        let file = try library(data, notes: &notes)
        try strict(notes)
        return file
    }

    /// Reads `marks.json`, failing on any field it does not understand.
    static func marks(_ data: Data) throws(Failure) -> MarksFile {
        var marks: [Mark] = []
        var positions: [PlaybackPosition] = []
        var queue: [QueueEntry] = []
        var notes = FieldNotes()
        let header = try withBytes(data) { (bytes) throws(Failure) in
            try scanMarks(bytes, notes: &notes, positions: { positions.append($0) }, queue: { queue.append($0) }) { marks.append($0) }
        }
        try strict(notes)
        return MarksFile(schemaVersion: header.schemaVersion, generation: header.generation, marks: marks, positions: positions,
                         queue: queue.isEmpty ? nil : queue)
    }

    private static func strict(_ notes: FieldNotes) throws(Failure) {
        guard notes.isEmpty else { throw Failure(offset: -1, reason: notes.summary) }
    }

    /// Reads a marks snapshot, handing each mark to `each` as it is read (so a caller can build its
    /// table without an intermediate array), each playback position to `positions` and each queue
    /// entry to `queue`; returns the file's schema version and generation.
    static func scanMarks(
        _ bytes: UnsafeBufferPointer<UInt8>, notes: inout FieldNotes, positions: (PlaybackPosition) -> Void = { _ in },
        queue: (QueueEntry) -> Void = { _ in }, _ each: (Mark) -> Void
    ) throws(Failure) -> (schemaVersion: Int, generation: Int) {
        try scan(bytes) { (scanner: inout JSONScanner) throws(Failure) in
            var fileHeader = (schemaVersion: 0, generation: 0)
            var deviceIDs: [String: String] = [:]
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
                switch key {
                case "schemaVersion": fileHeader.schemaVersion = try header(&scanner, "schemaVersion", &notes)
                case "generation": fileHeader.generation = try header(&scanner, "generation", &notes)
                case "marks":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
                        guard var mark = try mark(&scanner, &notes) else { return }
                        if let shared = deviceIDs[mark.deviceID] { mark.deviceID = shared } else { deviceIDs[mark.deviceID] = mark.deviceID }
                        each(mark)
                    }
                case "positions": try Self.positions(&scanner, &notes, positions)
                case "queue": try queueEntries(&scanner, &notes, queue)
                default: try scanner.skipValue()
                }
            }
            return fileHeader
        }
    }

    /// Decodes one journal line; returns the change and the schema version that wrote it. What is
    /// not understood is defaulted and counted in `notes`; only malformed JSON throws.
    static func change(_ data: Data, notes: inout FieldNotes, descriptions: DescriptionHandling = .text) throws(Failure) -> (StoreChange, Int) {
        var syncRange: Range<Int>?
        let (change, schemaVersion) = try scan(data) { (scanner: inout JSONScanner) throws(Failure) in
            var change = StoreChange()
            var schemaVersion = 0
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
                switch key {
                case "v": schemaVersion = try header(&scanner, "v", &notes)
                case "marks":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
                        if let mark = try mark(&scanner, &notes) { change.marks.append(mark) }
                    }
                case "videos":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
                        if let video = try video(&scanner, &notes, descriptions: descriptions) { change.videos.append(video) }
                    }
                case "channels":
                    try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
                        if let channel = try channel(&scanner, &notes) { change.channels.append(channel) }
                    }
                case "removedChannelIDs": change.removedChannelIDs = try stringList(&scanner, "removedChannelIDs", &notes)
                case "removedMarkIDs": change.removedMarkIDs = try stringList(&scanner, "removedMarkIDs", &notes)
                case "addedVideoIDs": change.addedVideoIDs = try stringList(&scanner, "addedVideoIDs", &notes)
                case "positions": try positions(&scanner, &notes) { change.positions.append($0) }
                case "queue": try queueEntries(&scanner, &notes) { change.queue.append($0) }
                case "subscriptions": change.subscriptions = try subscriptions(&scanner, { data[(data.startIndex + $0.lowerBound)..<(data.startIndex + $0.upperBound)] }, &notes) ?? []
                case "sync": syncRange = try scanner.skipValueRange()
                case "syncChange":
                    let range = try scanner.skipValueRange()
                    let bytes = data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)]
                    change.syncChange = try? StoreCoding.decoder().decode(SyncChange.self, from: bytes)
                    if change.syncChange == nil { notes.add("a sync change that could not be read was left out") }
                default: try scanner.skipValue()
                }
            }
            return (change, schemaVersion)
        }
        guard let syncRange else { return (change, schemaVersion) }
        var withSync = change
        let bytes = data[(data.startIndex + syncRange.lowerBound)..<(data.startIndex + syncRange.upperBound)]
        withSync.sync = try syncSnapshot(bytes, notes: &notes)
        return (withSync, schemaVersion)
    }

    /// Decodes a sync state with `JSONDecoder` (so every field, including ones added later, is
    /// read); when that fails on a field, decodes the known fields one by one, with defaults.
    static func syncSnapshot(_ bytes: Data, notes: inout FieldNotes) throws(Failure) -> SyncSnapshot {
        if let sync = try? StoreCoding.decoder().decode(SyncSnapshot.self, from: bytes) { return sync }
        return try scan(bytes) { (scanner: inout JSONScanner) throws(Failure) in try lenientSyncSnapshot(&scanner, &notes) }
    }

    static func scan<T>(_ data: Data, _ body: (inout JSONScanner) throws(Failure) -> T) throws(Failure) -> T {
        try withBytes(data) { (bytes) throws(Failure) in try scan(bytes, body) }
    }

    /// Runs `body` over the bytes of `data`.
    private static func withBytes<T>(_ data: Data, _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> T) throws(Failure) -> T {
        let result: Result<T, Failure> = data.withUnsafeBytes { raw in
            do throws(Failure) { return .success(try body(raw.bindMemory(to: UInt8.self))) } catch { return .failure(error) }
        }
        return try result.get()
    }

    static func scan<T>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (inout JSONScanner) throws(Failure) -> T) throws(Failure) -> T {
        var scanner = JSONScanner(bytes)
        let value = try body(&scanner)
        try scanner.expectEnd()
        return value
    }

    /// Reads one field with `read`; a value that is not understood becomes `fallback` and a note.
    static func field<T>(
        _ scanner: inout JSONScanner, _ label: String, _ notes: inout FieldNotes, default fallback: T,
        _ read: (inout JSONScanner) throws(Failure) -> T
    ) throws(Failure) -> T {
        switch try scanner.lenient(read) {
        case let .success(value): return value
        case let .failure(failure):
            notes.add("\(label): \(failure.reason)")
            return fallback
        }
    }

    private static func header(_ scanner: inout JSONScanner, _ label: String, _ notes: inout FieldNotes) throws(Failure) -> Int {
        try field(&scanner, label, &notes, default: 0) { (scanner: inout JSONScanner) throws(Failure) in Int(try scanner.readInt()) }
    }

    private static func stringList(_ scanner: inout JSONScanner, _ label: String, _ notes: inout FieldNotes) throws(Failure) -> [String] {
        try field(&scanner, label, &notes, default: []) { (scanner: inout JSONScanner) throws(Failure) in
            var list: [String] = []
            try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in list.append(try scanner.readString()) }
            return list
        }
    }

    static func optionalString(_ scanner: inout JSONScanner) throws(Failure) -> String? {
        try scanner.consumeNull() ? nil : try scanner.readString()
    }

    static func date(_ scanner: inout JSONScanner) throws(Failure) -> Date {
        Date(timeIntervalSince1970: try scanner.readDouble())
    }

    static func optionalDate(_ scanner: inout JSONScanner) throws(Failure) -> Date? {
        try scanner.consumeNull() ? nil : try date(&scanner)
    }

    static func optionalInt(_ scanner: inout JSONScanner) throws(Failure) -> Int64? {
        try scanner.consumeNull() ? nil : try scanner.readInt()
    }

    /// A channel, or `nil` (with a note) when its id is missing.
    static func channel(_ scanner: inout JSONScanner, _ notes: inout FieldNotes) throws(Failure) -> Channel? {
        var id: String?
        var channel = Channel(id: "", addedAt: Date(timeIntervalSince1970: 0))
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch Channel.CodingKeys(rawValue: key) {
            case .id?: id = try field(&scanner, "channel.id", &notes, default: nil, optionalString)
            case .title?: channel.title = try field(&scanner, "channel.title", &notes, default: nil, optionalString)
            case .thumbnailURL?: channel.thumbnailURL = try field(&scanner, "channel.thumbnailURL", &notes, default: nil, optionalString)
            case .addedAt?: channel.addedAt = try field(&scanner, "channel.addedAt", &notes, default: channel.addedAt, date)
            case .tags?: channel.tags = try field(&scanner, "channel.tags", &notes, default: nil) { (scanner: inout JSONScanner) throws(Failure) in
                if try scanner.consumeNull() { return nil }
                var tags: [String] = []
                try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in tags.append(try scanner.readString()) }
                return tags
            }
            case nil: try scanner.skipValue()
            }
        }
        guard let id else {
            notes.add("a channel without an id was left out")
            return nil
        }
        channel.id = id
        return channel
    }

    /// A video, or `nil` (with a note) when its id or channel is missing.
    static func video(_ scanner: inout JSONScanner, _ notes: inout FieldNotes, descriptions: DescriptionHandling = .text) throws(Failure) -> Video? {
        var id: String?, channelID: String?, title: String?, published: Date?
        var duration: Int?, description: String?, thumbnailURL: String?, hubSeq: Int64?, isShortLink = false
        var availability = Availability.available, scheduledStart: Date?
        var views: Int64?, starRatings: Int64?
        var reference: DescriptionReference?
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch Video.CodingKeys(rawValue: key) {
            case .id?: id = try field(&scanner, "video.id", &notes, default: nil, optionalString)
            case .channelID?: channelID = try field(&scanner, "video.channelID", &notes, default: nil, optionalString)
            case .title?: title = try field(&scanner, "video.title", &notes, default: nil, optionalString)
            case .published?: published = try field(&scanner, "video.published", &notes, default: nil, optionalDate)
            case .duration?: duration = try field(&scanner, "video.duration", &notes, default: nil, optionalInt).map { Int($0) }
            case .description?:
                switch descriptions {
                case .text: description = try field(&scanner, "video.description", &notes, default: nil, optionalString)
                case let .reference(file, base): reference = try descriptionReference(&scanner, &notes, file: file, base: base)
                case .skip: try scanner.skipValue()
                }
            case .thumbnailURL?: thumbnailURL = try field(&scanner, "video.thumbnailURL", &notes, default: nil, optionalString)
            case .hubSeq?: hubSeq = try field(&scanner, "video.hubSeq", &notes, default: nil, optionalInt)
            case .isShortLink?: isShortLink = try field(&scanner, "video.isShortLink", &notes, default: false) { (scanner: inout JSONScanner) throws(Failure) in try scanner.readBool() }
            case .availability?: availability = try field(&scanner, "video.availability", &notes, default: .available) { (scanner: inout JSONScanner) throws(Failure) in
                Availability(wire: try optionalString(&scanner))
            }
            case .scheduledStart?: scheduledStart = try field(&scanner, "video.scheduledStart", &notes, default: nil, optionalDate)
            case .views?: views = try field(&scanner, "video.views", &notes, default: nil, optionalInt)
            case .starRatings?: starRatings = try field(&scanner, "video.starRatings", &notes, default: nil, optionalInt)
            case nil: try scanner.skipValue()
            }
        }
        guard let id, let channelID else {
            notes.add("a video without an id or channel was left out")
            return nil
        }
        if title == nil { notes.add("video \(id): no title; shown untitled") }
        if published == nil { notes.add("video \(id): no publication date; 1970 used") }
        var video = Video(id: id, channelID: channelID, title: title ?? "", published: published ?? Date(timeIntervalSince1970: 0), duration: duration,
                          description: description, thumbnailURL: thumbnailURL, hubSeq: hubSeq, isShortLink: isShortLink,
                          availability: availability, scheduledStart: scheduledStart,
                          views: views.flatMap { Int(exactly: $0) }, starRatings: starRatings.flatMap { Int(exactly: $0) })
        if let reference { video.descriptionReference = reference }
        return video
    }

    /// Where the description literal that comes next lies, checked as a string but not read.
    private static func descriptionReference(_ scanner: inout JSONScanner, _ notes: inout FieldNotes, file: UInt32, base: UInt64) throws(Failure) -> DescriptionReference? {
        let range = try field(&scanner, "video.description", &notes, default: nil) { (scanner: inout JSONScanner) throws(Failure) -> Range<Int>? in
            try scanner.consumeNull() ? nil : try scanner.stringRange()
        }
        guard let range else { return nil }
        guard let length = UInt32(exactly: range.count) else {
            notes.add("video.description: longer than 4 GiB; left out")
            return nil
        }
        return DescriptionReference(file: file, offset: base + UInt64(range.lowerBound), length: length)
    }

    static func timestamp(_ scanner: inout JSONScanner) throws(Failure) -> HybridTimestamp {
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

    static func status(_ scanner: inout JSONScanner) throws(Failure) -> WatchStatus {
        let text = try scanner.readString()
        guard let status = WatchStatus(rawValue: text) else { throw Failure(offset: -1, reason: "unknown status \(text)") }
        return status
    }

    static func syncState(_ scanner: inout JSONScanner) throws(Failure) -> SyncState {
        let text = try scanner.readString()
        guard let state = SyncState(rawValue: text) else { throw Failure(offset: -1, reason: "unknown sync state \(text)") }
        return state
    }

    private static func serverVersion(_ scanner: inout JSONScanner, _ label: String, _ notes: inout FieldNotes) throws(Failure) -> ServerVersion? {
        if try scanner.consumeNull() { return nil }
        var changeTag: String?, status: WatchStatus?, hlc: HybridTimestamp?, deviceID: String?
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch key {
            case "changeTag": changeTag = try field(&scanner, "\(label).changeTag", &notes, default: nil, optionalString)
            case "status": status = try field(&scanner, "\(label).status", &notes, default: nil, Self.status)
            case "hlc": hlc = try field(&scanner, "\(label).hlc", &notes, default: nil) { (scanner: inout JSONScanner) throws(Failure) in
                try scanner.consumeNull() ? nil : try timestamp(&scanner)
            }
            case "deviceID": deviceID = try field(&scanner, "\(label).deviceID", &notes, default: nil, optionalString)
            default: try scanner.skipValue()
            }
        }
        guard let changeTag, let status else {
            notes.add("\(label) without a change tag or status was forgotten")
            return nil
        }
        return ServerVersion(changeTag: changeTag, status: status, hlc: hlc, deviceID: deviceID)
    }

    /// A server version; one that is not an object is forgotten with a note.
    private static func version(_ scanner: inout JSONScanner, _ label: String, _ notes: inout FieldNotes) throws(Failure) -> ServerVersion? {
        var inner = FieldNotes()
        let version = try field(&scanner, label, &notes, default: nil) { (scanner: inout JSONScanner) throws(Failure) in
            try serverVersion(&scanner, label, &inner)
        }
        notes.merge(inner)
        return version
    }

    /// A mark, or `nil` (with a note) when its video id or status is missing or not understood.
    static func mark(_ scanner: inout JSONScanner, _ notes: inout FieldNotes) throws(Failure) -> Mark? {
        var videoID: String?, status: WatchStatus?, hlc: HybridTimestamp?, deviceID: String?
        var syncState = SyncState.pending, base: ServerVersion?, theirs: ServerVersion?, rule: String?
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch Mark.CodingKeys(rawValue: key) {
            case .videoID?: videoID = try field(&scanner, "mark.videoID", &notes, default: nil, optionalString)
            case .status?: status = try field(&scanner, "mark.status", &notes, default: nil, Self.status)
            case .hlc?: hlc = try field(&scanner, "mark.hlc", &notes, default: nil, timestamp)
            case .deviceID?: deviceID = try field(&scanner, "mark.deviceID", &notes, default: nil, optionalString)
            case .syncState?: syncState = try field(&scanner, "mark.syncState", &notes, default: .pending, Self.syncState)
            case .base?: base = try version(&scanner, "mark.base", &notes)
            case .theirs?: theirs = try version(&scanner, "mark.theirs", &notes)
            case .rule?: rule = try field(&scanner, "mark.rule", &notes, default: nil, optionalString)
            case nil: try scanner.skipValue()
            }
        }
        guard let videoID, let status else {
            notes.add("a mark without a video id or status was left out")
            return nil
        }
        if hlc == nil { notes.add("mark \(videoID): no clock reading; 0 used") }
        if deviceID == nil { notes.add("mark \(videoID): no device") }
        return Mark(videoID: videoID, status: status, hlc: hlc ?? HybridTimestamp(millis: 0), deviceID: deviceID ?? "",
                    syncState: syncState, base: base, theirs: theirs, rule: rule)
    }
}

extension SnapshotDecoding.DescriptionHandling {
    var isText: Bool { if case .text = self { true } else { false } }
}
