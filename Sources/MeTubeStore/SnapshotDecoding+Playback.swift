import Foundation
import MeTubeCore
import MeTubeJSON

extension SnapshotDecoding {
    /// A list of playback positions; an entry that is not understood is left out with a note.
    static func positions(_ scanner: inout JSONScanner, _ notes: inout FieldNotes, _ each: (PlaybackPosition) -> Void) throws(Failure) {
        try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in
            if let position = try position(&scanner, &notes) { each(position) }
        }
    }

    /// A playback position, or `nil` (with a note) when its video id is missing or its seconds are
    /// not a number in range. A duration out of range is dropped with a note.
    static func position(_ scanner: inout JSONScanner, _ notes: inout FieldNotes) throws(Failure) -> PlaybackPosition? {
        var videoID: String?, seconds: Double?, duration: Double?, hlc: HybridTimestamp?, deviceID: String?
        var syncState = SyncState.pending
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch key {
            case "videoID": videoID = try field(&scanner, "position.videoID", &notes, default: nil, optionalString)
            case "seconds": seconds = try field(&scanner, "position.seconds", &notes, default: nil) { (scanner: inout JSONScanner) throws(Failure) in try scanner.readDouble() }
            case "duration": duration = try field(&scanner, "position.duration", &notes, default: nil) { (scanner: inout JSONScanner) throws(Failure) in
                try scanner.consumeNull() ? nil : try scanner.readDouble()
            }
            case "hlc": hlc = try field(&scanner, "position.hlc", &notes, default: nil, timestamp)
            case "deviceID": deviceID = try field(&scanner, "position.deviceID", &notes, default: nil, optionalString)
            case "syncState": syncState = try field(&scanner, "position.syncState", &notes, default: .pending, Self.syncState)
            default: try scanner.skipValue()
            }
        }
        guard let videoID, let seconds = seconds.flatMap(PlaybackPosition.checked) else {
            notes.add("a playback position without a video id or a valid position was left out")
            return nil
        }
        if let duration, PlaybackPosition.checked(duration) == nil { notes.add("position \(videoID): duration out of range dropped") }
        if hlc == nil { notes.add("position \(videoID): no clock reading; 0 used") }
        return PlaybackPosition(videoID: videoID, seconds: seconds, duration: duration, hlc: hlc ?? HybridTimestamp(millis: 0),
                                deviceID: deviceID ?? "", syncState: syncState)
    }
}
