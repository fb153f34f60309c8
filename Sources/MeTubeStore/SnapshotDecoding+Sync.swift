import Foundation
import MeTubeJSON

extension SnapshotDecoding {
    /// Decodes `sync.json` field by field (see ``lenientSyncSnapshot(_:_:)``), a field not
    /// understood noted in `notes` and defaulted.
    static func syncFile(_ data: Data, notes: inout FieldNotes) throws(Failure) -> SyncFile {
        try scan(data) { (scanner: inout JSONScanner) throws(Failure) in
            var file = SyncFile(schemaVersion: 0, generation: 0, sync: SyncSnapshot(deviceID: ""))
            try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
                switch key {
                case "schemaVersion": file.schemaVersion = Int(try scanner.readInt())
                case "generation": file.generation = Int(try scanner.readInt())
                case "sync": file.sync = try lenientSyncSnapshot(&scanner, &notes)
                default: try scanner.skipValue()
                }
            }
            return file
        }
    }

    /// Decodes the known fields of a sync state one by one, each with its default when it is not
    /// understood, so one bad field never costs the watermark or the sync token beside it.
    static func lenientSyncSnapshot(_ scanner: inout JSONScanner, _ notes: inout FieldNotes) throws(Failure) -> SyncSnapshot {
        var sync = SyncSnapshot(deviceID: "")
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch key {
            case "deviceID": sync.deviceID = try field(&scanner, "sync.deviceID", &notes, default: "") { (scanner: inout JSONScanner) throws(Failure) in try scanner.readString() }
            case "hubWatermark": sync.hubWatermark = try field(&scanner, "sync.hubWatermark", &notes, default: 0) { (scanner: inout JSONScanner) throws(Failure) in try scanner.readInt() }
            case "hubRegisteredChannelIDs":
                sync.hubRegisteredChannelIDs = try field(&scanner, "sync.hubRegisteredChannelIDs", &notes, default: []) { (scanner: inout JSONScanner) throws(Failure) in
                    var ids: [String] = []
                    try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in ids.append(try scanner.readString()) }
                    return ids
                }
            case "lastHubSync": sync.lastHubSync = try field(&scanner, "sync.lastHubSync", &notes, default: nil, optionalDate)
            case "statusSyncToken": sync.markSyncToken = try field(&scanner, "sync.statusSyncToken", &notes, default: nil, optionalString)
            case "subscriptionsSyncToken": sync.subscriptionsSyncToken = try field(&scanner, "sync.subscriptionsSyncToken", &notes, default: nil, optionalString)
            case "statusZoneReady": sync.markSyncZoneReady = try field(&scanner, "sync.statusZoneReady", &notes, default: false) { (scanner: inout JSONScanner) throws(Failure) in try scanner.readBool() }
            case "lastStatusSync": sync.lastMarkSync = try field(&scanner, "sync.lastStatusSync", &notes, default: nil, optionalDate)
            case "statusOfflineSince": sync.markSyncOfflineSince = try field(&scanner, "sync.statusOfflineSince", &notes, default: nil, optionalDate)
            case "channelFetches":
                var inner = FieldNotes()
                sync.channelFetches = try field(&scanner, "sync.channelFetches", &notes, default: [:]) { (scanner: inout JSONScanner) throws(Failure) in
                    var fetches: [String: ChannelFetchResult] = [:]
                    try scanner.readObject { (scanner: inout JSONScanner, channelID: String) throws(Failure) in
                        fetches[channelID] = try channelFetch(&scanner, &inner)
                    }
                    return fetches
                }
                notes.merge(inner)
            default: try scanner.skipValue()
            }
        }
        return sync
    }

    private static func channelFetch(_ scanner: inout JSONScanner, _ notes: inout FieldNotes) throws(Failure) -> ChannelFetchResult {
        var result = ChannelFetchResult()
        try scanner.readObject { (scanner: inout JSONScanner, key: String) throws(Failure) in
            switch key {
            case "lastSuccess": result.lastSuccess = try field(&scanner, "channelFetch.lastSuccess", &notes, default: nil, optionalDate)
            case "failingSince": result.failingSince = try field(&scanner, "channelFetch.failingSince", &notes, default: nil, optionalDate)
            case "lastError": result.lastError = try field(&scanner, "channelFetch.lastError", &notes, default: nil, optionalString)
            case "etag": result.etag = try field(&scanner, "channelFetch.etag", &notes, default: nil, optionalString)
            case "lastModified": result.lastModified = try field(&scanner, "channelFetch.lastModified", &notes, default: nil, optionalString)
            default: try scanner.skipValue()
            }
        }
        return result
    }
}
