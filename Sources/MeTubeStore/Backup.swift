import Foundation
import MeTubeCore

/// What a backup file says about itself.
public struct BackupManifest: Codable, Sendable, Equatable {
    /// Always `metube-backup`: tells a backup from other JSON.
    public var format: String
    /// The schema of the store that wrote it.
    public var schemaVersion: Int
    /// When it was written.
    public var createdAt: Date
    /// How many channels, videos and marks it holds.
    public var channelCount: Int
    public var videoCount: Int
    public var markCount: Int
}

/// One JSON file holding a whole store: `metube export --backup` writes it, `metube restore` reads it.
struct BackupFile: Codable {
    var manifest: BackupManifest
    var channels: [Channel]
    var videos: [Video]
    var marks: [Mark]
    var sync: SyncSnapshot
    /// Playback positions (absent in backups written before positions existed).
    var positions: [PlaybackPosition]?
    /// Watch-later queue entries (absent in backups written before the queue existed).
    var queue: [QueueEntry]?
}

extension Store {
    /// The whole store as one backup file.
    public func exportBackup() throws(StoreError) -> Data {
        try refresh()
        let library = library()
        let manifest = BackupManifest(format: "metube-backup", schemaVersion: currentSchemaVersion, createdAt: Date(),
                                      channelCount: library.channels.count, videoCount: library.videos.count, markCount: library.marks.count)
        let file = BackupFile(manifest: manifest, channels: library.channels.values.sorted { $0.id < $1.id }, videos: library.videos,
                              marks: library.marks.values.sorted { $0.videoID < $1.videoID }, sync: syncSnapshot(),
                              positions: library.playbackPositions.values.sorted { $0.videoID < $1.videoID },
                              queue: library.queue.values.sorted { $0.videoID < $1.videoID })
        do {
            return try StoreCoding.encoder().encode(file)
        } catch {
            throw .writeFailed(path: "backup", reason: "could not encode: \(error)")
        }
    }

    /// Checks a backup file without touching the store.
    public static func validateBackup(_ data: Data) throws(StoreError) -> BackupManifest {
        try decodeBackup(data).manifest
    }

    static func decodeBackup(_ data: Data) throws(StoreError) -> BackupFile {
        let file: BackupFile
        do {
            file = try StoreCoding.decoder().decode(BackupFile.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw .invalidBackup(reason: "not JSON or damaged (\(context.debugDescription))")
        } catch let DecodingError.keyNotFound(key, context) {
            throw .invalidBackup(reason: "missing \(([key] + context.codingPath.reversed()).reversed().map(\.stringValue).joined(separator: "."))")
        } catch {
            throw .invalidBackup(reason: "\(error)")
        }
        let manifest = file.manifest
        guard manifest.format == "metube-backup" else { throw .invalidBackup(reason: "format is \(manifest.format), not metube-backup") }
        guard manifest.schemaVersion <= currentSchemaVersion else {
            throw .invalidBackup(reason: "written by a newer metube (schema \(manifest.schemaVersion) > \(currentSchemaVersion))")
        }
        let counts = (file.channels.count, file.videos.count, file.marks.count)
        guard counts == (manifest.channelCount, manifest.videoCount, manifest.markCount) else {
            throw .invalidBackup(reason: "the manifest promises \(manifest.channelCount) channels, \(manifest.videoCount) videos, \(manifest.markCount) marks but the file holds \(counts.0), \(counts.1), \(counts.2): it is truncated or edited")
        }
        if let bad = file.channels.first(where: { !ChannelID.isValid($0.id) }) {
            throw .invalidBackup(reason: "invalid channel id \(bad.id)")
        }
        return file
    }

    /// Replaces the whole store with a backup after validating it; the replaced state stays in the
    /// rotating backups.
    @discardableResult
    public func restore(from data: Data) throws(StoreError) -> BackupManifest {
        let file = try Self.decodeBackup(data)
        var sync = file.sync
        sync.deviceID = deviceID
        var library = Library(channels: file.channels, videos: file.videos, marks: file.marks)
        for position in file.positions ?? [] {
            library.apply(PlaybackPosition(videoID: position.videoID, seconds: position.seconds, duration: position.duration,
                                           hlc: position.hlc, deviceID: position.deviceID, syncState: position.syncState))
        }
        for entry in file.queue ?? [] {
            library.apply(QueueEntry(videoID: entry.videoID, queuedAt: entry.queuedAt, hlc: entry.hlc, deviceID: entry.deviceID, syncState: entry.syncState))
        }
        try replaceContents(with: library, sync: sync)
        return file.manifest
    }
}
