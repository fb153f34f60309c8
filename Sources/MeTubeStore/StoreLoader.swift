import Foundation
import MeTubeCore
import MeTubeJSON

/// Reads a store directory into a ``StoreState``: snapshots, then the journals they do not include.
/// It never writes: a snapshot that does not parse is recovered from the newest backup that does,
/// plus the journals, and listed in ``StoreState/damagedInputs`` so the next write keeps a
/// `.corrupt-<time>` copy and replaces it; every such step leaves a notice for the user.
struct StoreLoader {
    let directory: String
    let journal: Journal

    private var backupsDirectory: String { "\(directory)/backups" }

    /// Loads everything. `holdingLock` says whether torn journal tails are final (no writer can be
    /// mid-line) and may be reported.
    func load(holdingLock: Bool) throws(StoreError) -> StoreState {
        var state = StoreState(sync: SyncSnapshot(deviceID: ""))
        var channels: [Channel] = []
        var subscriptions: [Subscription] = []
        var videos: [Video] = []
        var marks = MarkTable()
        var positions: [PlaybackPosition] = []
        var queue: [QueueEntry] = []
        var sync: SyncSnapshot?

        var libraryNotes = FieldNotes()
        if let ((file, source), identity) = try loadPart(.library, state: &state, decode: { source throws(StoreError) in
            libraryNotes = FieldNotes()
            let file = try source.withMappedBytes { (bytes, release) throws(StoreError) in
                try Self.decodeFast(path: "library.json") { () throws(JSONScanner.Failure) in
                    try SnapshotDecoding.library(bytes, notes: &libraryNotes, descriptions: .reference(file: source.number, base: 0), release: release)
                }
            }
            return (file, source)
        }) {
            channels = file.channels
            subscriptions = file.subscriptions ?? []
            videos = file.videos
            state.descriptionFiles[source.number] = source
            note(file.schemaVersion, file.generation, .library, identity, &state)
        }
        note(libraryNotes, in: .library, &state)
        var marksNotes = FieldNotes()
        if let ((table, header, read, queued), identity) = try loadPart(.marks, state: &state, decode: { source throws(StoreError) in
            marksNotes = FieldNotes()
            return try source.withMappedBytes { (bytes, _) throws(StoreError) in
                try Self.decodeFast(path: "marks.json") { () throws(JSONScanner.Failure) in
                    var table = MarkTable()
                    var read: [PlaybackPosition] = []
                    var queued: [QueueEntry] = []
                    let header = try SnapshotDecoding.scanMarks(bytes, notes: &marksNotes, positions: { read.append($0) },
                                                                queue: { queued.append($0) }) { table[$0.videoID] = $0 }
                    return (table, header, read, queued)
                }
            }
        }) {
            marks = table
            positions = read
            queue = queued
            note(header.schemaVersion, header.generation, .marks, identity, &state)
        }
        note(marksNotes, in: .marks, &state)
        var syncNotes = FieldNotes()
        if let (file, identity) = try loadPart(.sync, state: &state, decode: { source throws(StoreError) in
            syncNotes = FieldNotes()
            let data = try source.withMappedBytes { (bytes, _) throws(StoreError) in Data(bytes) }
            return try Self.decodeSyncFile(data, notes: &syncNotes)
        }) {
            sync = file.sync
            note(file.schemaVersion, file.generation, .sync, identity, &state)
        }
        note(syncNotes, in: .sync, &state)

        state.library = Library(channels: channels, videos: videos, markTable: marks)
        for subscription in subscriptions {
            state.library.apply(subscription)
            state.clock.observe(subscription.hlc)
        }
        if let sync { state.sync = sync }
        for mark in marks { state.observeClocks(of: mark) }
        for position in positions {
            state.library.apply(position)
            state.clock.observe(position.hlc)
        }
        for entry in queue {
            state.library.apply(entry)
            state.clock.observe(entry.hlc)
        }

        let oldest = state.generations.values.min() ?? 0
        for generation in journal.readableGenerations() where generation >= oldest {
            state.newestJournal = max(state.newestJournal, generation)
            let result = try journal.read(generation, from: 0, reusing: state.descriptionFiles)
            state.apply(result, journalGeneration: generation)
            state.journalOffsets[generation] = result.endOffset
            let name = "journal-\(generation).jsonl"
            if !result.damagedLines.isEmpty {
                state.notices.append("\(name): skipped \(result.damagedLines.count) damaged line(s) (line \(result.damagedLines.map(String.init).joined(separator: ", "))); \(Self.keptAside)")
                state.damagedInputs.insert(journal.readPath(generation))
            }
            if !result.notes.isEmpty {
                state.notices.append("\(name): \(result.notes.summary); \(Self.keptAside)")
                state.damagedInputs.insert(journal.readPath(generation))
            }
            if holdingLock, result.incompleteTailBytes > 0 {
                state.notices.append("\(name): ignored a torn last line (\(result.incompleteTailBytes) bytes) left by a process that stopped mid-write; every completed mark is intact")
            }
            if result.hasNewerSchema {
                state.readOnlyReason = state.readOnlyReason ?? "\(name) was written by a newer metube (schema > \(currentSchemaVersion)); upgrade metube to change this store"
            }
        }
        return state
    }

    /// The promise every notice about a damaged input ends with.
    static let keptAside = "the file is kept as a .corrupt-<time> copy at the next write"

    private func note(_ notes: FieldNotes, in part: StorePart, _ state: inout StoreState) {
        guard !notes.isEmpty else { return }
        state.notices.append("\(part.fileName): \(notes.summary); \(Self.keptAside)")
        state.damagedInputs.insert("\(directory)/\(part.fileName)")
    }

    /// Reads `sync.json`: with `JSONDecoder` (every field), else field by field with defaults.
    private static func decodeSyncFile(_ data: Data, notes: inout FieldNotes) throws(StoreError) -> SyncFile {
        if let file = try? StoreCoding.decoder().decode(SyncFile.self, from: data) { return file }
        return try decodeFast(path: "sync.json") { () throws(JSONScanner.Failure) in try SnapshotDecoding.syncFile(data, notes: &notes) }
    }

    private func note(_ schemaVersion: Int, _ generation: Int, _ part: StorePart, _ identity: FileIdentity?, _ state: inout StoreState) {
        state.generations[part] = generation
        if let identity { state.identities[part] = identity }
        if schemaVersion > currentSchemaVersion {
            state.readOnlyReason = state.readOnlyReason
                ?? "\(part.fileName) has schema version \(schemaVersion), newer than this metube's \(currentSchemaVersion); upgrade metube to change this store"
        }
    }

    private static func decodeFast<T>(path: String, _ body: () throws(JSONScanner.Failure) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw .corrupt(path: path, reason: error.description) }
    }

    /// Reads one part's snapshot; on damage, falls back to the newest backup that parses and
    /// lists the damaged file for the next write to keep aside and replace. `nil` when neither
    /// exists (a new store, or nothing to recover from). The identity is always the file's own,
    /// so a refresh does not mistake the damaged file for a replaced one.
    private func loadPart<T>(
        _ part: StorePart, state: inout StoreState, decode: (StoreFile) throws(StoreError) -> T
    ) throws(StoreError) -> (T, FileIdentity)? {
        let path = "\(directory)/\(part.fileName)"
        guard let source = try StoreFile(path: path) else { return nil }
        let identity = source.identity
        do {
            return (try decode(source), identity)
        } catch {
            state.damagedInputs.insert(path)
            state.identities[part] = identity
            var message = "\(part.fileName) is damaged (\(error)); \(Self.keptAside)"
            for backup in backupGenerations().reversed() {
                guard let backupSource = try? StoreFile(path: "\(backupsDirectory)/\(backup)/\(part.fileName)"),
                      let value = try? decode(backupSource) else { continue }
                message += "; recovered from backup \(backup) plus the journal"
                state.notices.append(message)
                return (value, identity)
            }
            state.notices.append(message + "; no usable backup, so it was rebuilt from the journal alone")
            return nil
        }
    }

    /// The backup generations on disk, ascending.
    func backupGenerations() -> [Int] {
        ((try? FileManager.default.contentsOfDirectory(atPath: backupsDirectory)) ?? []).compactMap(Int.init).sorted()
    }

    static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: Date())
    }
}

#if canImport(Glibc)
import Glibc
#endif
