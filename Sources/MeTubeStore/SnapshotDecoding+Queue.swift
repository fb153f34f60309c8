import MeTubeCore
import MeTubeJSON

extension SnapshotDecoding {
    /// A list of watch-later queue entries; an entry that is not understood is left out with a note.
    static func queueEntries(_ scanner: inout JSONScanner, _ notes: inout FieldNotes, _ each: (QueueEntry) -> Void) throws(Failure) {
        try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
            if let entry = try queueEntry(&scanner, &notes) { each(entry) }
        }
    }

    /// A queue entry, or `nil` (with a note) when its video id or clock reading is missing. A
    /// `queuedAt` that is not a whole number between 1970 and 9999 is left out with a note, and
    /// the entry kept as a removal: what cannot be ordered is not shown as queued.
    static func queueEntry(_ scanner: inout JSONScanner, _ notes: inout FieldNotes) throws(Failure) -> QueueEntry? {
        var videoID: String?, queuedAt: Int64?, hlc: HybridTimestamp?, deviceID: String?
        var syncState = SyncState.pending
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch key {
            case "videoID": videoID = try field(&scanner, "queue.videoID", &notes, default: nil, optionalString)
            case "queuedAt": queuedAt = try field(&scanner, "queue.queuedAt", &notes, default: nil) { (scanner: inout JSONScanner) throws(Failure) in
                guard let millis = QueueEntry.checked(try scanner.readInt()) else { throw Failure(offset: -1, reason: "queuedAt out of range") }
                return millis
            }
            case "hlc": hlc = try field(&scanner, "queue.hlc", &notes, default: nil, timestamp)
            case "deviceID": deviceID = try field(&scanner, "queue.deviceID", &notes, default: nil, optionalString)
            case "syncState": syncState = try field(&scanner, "queue.syncState", &notes, default: .pending, Self.syncState)
            default: try scanner.skipValue()
            }
        }
        guard let videoID, let hlc else {
            notes.add("a queue entry without a video id or clock reading was left out")
            return nil
        }
        return QueueEntry(videoID: videoID, queuedAt: queuedAt, hlc: hlc, deviceID: deviceID ?? "", syncState: syncState)
    }
}
