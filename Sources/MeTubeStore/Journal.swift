import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The append-only journal: one ``StoreChange`` as JSON per line, sealed with a checksum
/// (``LineChecksum``), each line fsync'd before the write returns. Files are numbered by generation (`journal-<N>.jsonl`); compaction starts a new one.
///
/// A journal already folded into the live snapshots is needed only by the backup it follows
/// (backup `N` plus journal `N` and later gives the live state), so compaction moves it into that
/// backup's directory (`backups/N/journal-N.jsonl`); reading finds it there.
struct Journal {
    let directory: String

    /// The path of generation `generation`'s journal in the store's directory, where lines are appended.
    func path(_ generation: Int) -> String { "\(directory)/journal-\(generation).jsonl" }

    /// The path of generation `generation`'s journal inside the backup it belongs to.
    func backupPath(_ generation: Int) -> String { "\(directory)/backups/\(generation)/journal-\(generation).jsonl" }

    /// Where generation `generation`'s journal is read from: the store's directory, else the backup
    /// it was moved into.
    func readPath(_ generation: Int) -> String {
        let live = path(generation)
        if access(live, F_OK) != 0, access(backupPath(generation), F_OK) == 0 { return backupPath(generation) }
        return live
    }

    /// The generations that have a journal file in the store's directory, ascending.
    func generations() -> [Int] {
        Self.generations(in: directory)
    }

    /// The generations that have a journal file, in the store's directory or moved into a backup, ascending.
    func readableGenerations() -> [Int] {
        let backups = ((try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/backups")) ?? []).compactMap(Int.init)
        let moved = backups.filter { access(backupPath($0), F_OK) == 0 }
        return Array(Set(generations() + moved)).sorted()
    }

    private static func generations(in directory: String) -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name in
            guard name.hasPrefix("journal-"), name.hasSuffix(".jsonl") else { return nil }
            return Int(name.dropFirst("journal-".count).dropLast(".jsonl".count))
        }.sorted()
    }

    /// What reading a journal from an offset found.
    struct ReadResult {
        /// The complete, valid lines.
        var changes: [StoreChange] = []
        /// The offset just after the last complete line.
        var endOffset: Int
        /// Bytes after the last newline: a line still being written, or torn by a crash.
        var incompleteTailBytes = 0
        /// 1-based numbers (counted from the read's start) of complete lines that did not parse or
        /// whose checksum does not match.
        var damagedLines: [Int] = []
        /// Fields of otherwise good lines that were not understood and got a default.
        var notes = FieldNotes()
        /// Whether a line was written by a newer schema.
        var hasNewerSchema = false
    }

    /// Reads the complete lines of generation `generation` from `offset`.
    func read(_ generation: Int, from offset: Int) throws(StoreError) -> ReadResult {
        let path = readPath(generation)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return ReadResult(endOffset: 0) }
            throw .readFailed(path: path, reason: errnoText())
        }
        defer { close(fd) }
        let data = try FileIO.readToEnd(fd, from: offset, path: path)
        var result = ReadResult(endOffset: offset)
        var lineStart = data.startIndex
        var lineNumber = 0
        while let newline = data[lineStart...].firstIndex(of: 0x0A) {
            lineNumber += 1
            let line = data[lineStart..<newline]
            lineStart = newline + 1
            guard !line.isEmpty else { continue }
            var notes = FieldNotes()
            guard LineChecksum.verify(line) != .mismatch, let (change, schemaVersion) = try? SnapshotDecoding.change(line, notes: &notes) else {
                result.damagedLines.append(lineNumber)
                continue
            }
            result.notes.merge(notes)
            if schemaVersion > currentSchemaVersion { result.hasNewerSchema = true }
            result.changes.append(change)
        }
        result.endOffset = offset + (lineStart - data.startIndex)
        result.incompleteTailBytes = data.endIndex - lineStart
        return result
    }

    /// The raw bytes of generation `generation`'s journal between two offsets (whole lines, as
    /// written: a compaction carries them into the next journal unchanged).
    func bytes(_ generation: Int, from start: Int, to end: Int) throws(StoreError) -> Data {
        let path = readPath(generation)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .readFailed(path: path, reason: errnoText()) }
        defer { close(fd) }
        return try FileIO.readToEnd(fd, from: start, path: path).prefix(end - start)
    }

    /// Appends `change` as one line and fsyncs it. A torn tail left by a crashed writer is cut off
    /// first; a failed write is rolled back so the file never ends in half a line.
    /// - Returns: the file's size after the append.
    func append(_ change: StoreChange, generation: Int) throws(StoreError) -> Int {
        let path = path(generation)
        var line: Data
        do {
            line = LineChecksum.seal(try SnapshotEncoding.change(change))
        } catch {
            throw .writeFailed(path: path, reason: "could not encode the change: \(error)")
        }
        line.append(0x0A)
        let existed = access(path, F_OK) == 0
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: errnoText()) }
        defer { close(fd) }
        let end = try completeLength(fd, path: path)
        guard ftruncate(fd, off_t(end)) == 0, lseek(fd, off_t(end), SEEK_SET) >= 0 else {
            throw .writeFailed(path: path, reason: errnoText())
        }
        if let failure = FileIO.writeAll(fd, line) ?? (fsync(fd) == 0 ? nil : errno) {
            _ = ftruncate(fd, off_t(end))
            _ = fsync(fd)
            throw .writeFailed(path: path, reason: errnoText(failure))
        }
        if !existed { try FileIO.syncDirectory(of: path) }
        return end + line.count
    }

    /// The length of the file up to and including its last newline.
    private func completeLength(_ fd: Int32, path: String) throws(StoreError) -> Int {
        var stats = stat()
        guard fstat(fd, &stats) == 0 else { throw .readFailed(path: path, reason: errnoText()) }
        var size = Int(stats.st_size)
        guard size > 0 else { return 0 }
        let chunk = 4096
        var buffer = [UInt8](repeating: 0, count: chunk)
        while size > 0 {
            let start = max(0, size - chunk)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, size - start, off_t(start)) }
            guard count == size - start else { throw .readFailed(path: path, reason: errnoText()) }
            if let last = buffer[0..<count].lastIndex(of: 0x0A) { return start + last + 1 }
            size = start
        }
        return 0
    }
}
