import Foundation
import MeTubeCore
import MeTubeJSON

/// One thing `metube doctor` found.
public struct DoctorFinding: Codable, Sendable, Equatable {
    /// How serious it is.
    public enum Severity: String, Codable, Sendable {
        case ok, info, warning, problem
    }

    /// How serious it is.
    public var severity: Severity
    /// The file or area concerned.
    public var subject: String
    /// What was found.
    public var message: String
}

/// Examines a store directory without changing anything: every snapshot and journal is parsed,
/// schema versions and backups checked, cross-references counted.
public enum StoreDoctor {
    /// The findings for the store in `directory`, most serious first.
    public static func examine(_ directory: URL) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        func add(_ severity: DoctorFinding.Severity, _ subject: String, _ message: String) {
            findings.append(DoctorFinding(severity: severity, subject: subject, message: message))
        }
        guard FileManager.default.fileExists(atPath: directory.path) else {
            add(.info, directory.path, "no store here yet; it is created on first use")
            return findings
        }
        var library = LibraryFile(schemaVersion: currentSchemaVersion, generation: 0, channels: [], videos: [])
        var marks = MarksFile(schemaVersion: currentSchemaVersion, generation: 0, marks: [])
        var generations: [StorePart: Int] = [:]
        for part in StorePart.allCases {
            let path = directory.appendingPathComponent(part.fileName).path
            do {
                guard let source = try StoreFile(path: path) else {
                    add(.info, part.fileName, "missing (normal for a store never compacted)")
                    continue
                }
                let header: (schema: Int, generation: Int)
                var notes = FieldNotes()
                switch part {
                case .library:
                    library = try source.withMappedBytes { (bytes, release) throws(StoreError) in
                        try decoded(path) { () throws(JSONScanner.Failure) in
                            try SnapshotDecoding.library(bytes, notes: &notes, descriptions: .reference(file: source.number, base: 0), release: release)
                        }
                    }
                    header = (library.schemaVersion, library.generation)
                case .marks:
                    var read: [Mark] = []
                    let fileHeader = try source.withMappedBytes { (bytes, _) throws(StoreError) in
                        try decoded(path) { () throws(JSONScanner.Failure) in try SnapshotDecoding.scanMarks(bytes, notes: &notes) { read.append($0) } }
                    }
                    marks = MarksFile(schemaVersion: fileHeader.schemaVersion, generation: fileHeader.generation, marks: read)
                    header = (marks.schemaVersion, marks.generation)
                case .sync:
                    let data = try source.withMappedBytes { (bytes, _) throws(StoreError) in Data(bytes) }
                    let file = try StoreCoding.decoder().decode(SyncFile.self, from: data)
                    header = (file.schemaVersion, file.generation)
                }
                generations[part] = header.generation
                if !notes.isEmpty {
                    add(.warning, part.fileName, "\(notes.summary); the rest reads, and the next write keeps the file as a .corrupt-<time> copy")
                }
                if header.schema > currentSchemaVersion {
                    add(.warning, part.fileName, "schema \(header.schema) is newer than this metube's \(currentSchemaVersion): the store opens read-only")
                } else {
                    add(.ok, part.fileName, "parses; schema \(header.schema), generation \(header.generation), \((try source.size()).formatted()) bytes")
                }
            } catch {
                add(.problem, part.fileName, "does not parse (\(error)); metube recovers it from a backup and the journal, and the next write keeps it as a .corrupt-<time> copy")
            }
        }
        switch Store.headCondition(at: directory) {
        case .missing: add(.info, Store.headFileName, "missing (written at each compaction; the first screen then comes from the full open)")
        case .damaged: add(.problem, Store.headFileName, "does not match its checksum: ignored (the first screen comes from the full open); the next compaction writes it anew")
        case .outOfDate: add(.info, Store.headFileName, "cut from earlier snapshots: ignored until the next compaction writes it anew")
        case .current: add(.ok, Store.headFileName, "matches its checksum and the current snapshots")
        }
        let journal = Journal(directory: directory.path)
        for generation in journal.generations() {
            let name = "journal-\(generation).jsonl"
            do {
                let result = try journal.read(generation, from: 0)
                add(.ok, name, "\(result.changes.count) line(s), \(result.endOffset.formatted()) bytes")
                if !result.damagedLines.isEmpty {
                    add(.problem, name, "damaged or altered line(s) \(result.damagedLines.map(String.init).joined(separator: ", ")) are skipped; the next write keeps the journal as a .corrupt-<time> copy")
                }
                if !result.notes.isEmpty {
                    add(.warning, name, "\(result.notes.summary); the next write keeps the journal as a .corrupt-<time> copy")
                }
                if result.incompleteTailBytes > 0 {
                    add(.warning, name, "ends in a torn line of \(result.incompleteTailBytes) bytes (a writer stopped mid-line); it is ignored and cut at the next write")
                }
            } catch {
                add(.problem, name, "cannot be read: \(error)")
            }
        }
        let backups = StoreLoader(directory: directory.path, journal: journal).backupGenerations()
        add(backups.isEmpty ? .info : .ok, "backups", backups.isEmpty ? "none yet (made at each compaction)" : "\(backups.count) kept: generation \(backups.map(String.init).joined(separator: ", "))")
        if Set(generations.values).count > 1 {
            let listed = StorePart.allCases.compactMap { part in generations[part].map { "\(part.rawValue) \($0)" } }.joined(separator: ", ")
            add(.warning, "snapshots", "from different generations (\(listed)): a compaction stopped part way; the journals make them consistent, and the next compaction writes them anew")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names.filter({ $0.contains(".corrupt-") }).sorted() {
            add(.info, name, "a damaged file kept aside by an earlier recovery; delete it when you no longer need it")
        }
        for name in names.filter({ $0.contains(".tmp-") || $0.contains(".previous-") }).sorted() {
            add(.info, name, "left by a write that was interrupted; never read, safe to delete (the next compaction deletes it once its process is gone)")
        }
        let channelIDs = Set(library.channels.map(\.id))
        let orphans = library.videos.filter { !channelIDs.contains($0.channelID) }.count
        if orphans > 0 { add(.info, "library", "\(orphans) video(s) of channels no longer followed") }
        let videoIDs = Set(library.videos.map(\.id))
        let unknownMarks = marks.marks.filter { !videoIDs.contains($0.videoID) }.count
        if unknownMarks > 0 { add(.info, "marks", "\(unknownMarks) mark(s) for videos not in the library (kept: they sync to other devices)") }
        let order: [DoctorFinding.Severity] = [.problem, .warning, .info, .ok]
        return findings.enumerated().sorted { lhs, rhs in
            let (left, right) = (order.firstIndex(of: lhs.element.severity)!, order.firstIndex(of: rhs.element.severity)!)
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// `decode`'s value, its failure as the store's error for `path`.
    private static func decoded<T>(_ path: String, _ decode: () throws(JSONScanner.Failure) -> T) throws(StoreError) -> T {
        do { return try decode() } catch { throw .corrupt(path: path, reason: error.description) }
    }
}
