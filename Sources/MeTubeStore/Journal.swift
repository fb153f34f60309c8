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
        /// The journal, when the changes' videos refer to descriptions in it.
        var descriptionFile: StoreFile?
    }

    /// How much of a journal is read at a time: a sync's lines can hold hundreds of megabytes of
    /// descriptions, which are never in memory at once.
    static let readChunkSize = 4 << 20

    /// Reads the complete lines of generation `generation` from `offset`, a chunk at a time.
    /// Videos' descriptions are kept as references into the journal (see
    /// ``ReadResult/descriptionFile``); of `files`, one already open on this journal is used again.
    func read(_ generation: Int, from offset: Int, reusing files: [UInt32: StoreFile] = [:]) throws(StoreError) -> ReadResult {
        let path = readPath(generation)
        guard let opened = try StoreFile(path: path) else { return ReadResult(endOffset: 0) }
        let file = opened.reused(from: files)
        let size = try opened.size()
        var result = ReadResult(endOffset: offset)
        var buffer = Data()
        var bufferOffset = offset
        var readOffset = offset
        var lineNumber = 0
        while readOffset < size {
            let chunk = try opened.read(at: UInt64(readOffset), count: min(Self.readChunkSize, size - readOffset))
            guard !chunk.isEmpty else { break }
            readOffset += chunk.count
            let searchFrom = buffer.endIndex
            buffer.append(contentsOf: chunk)
            var lineStart = buffer.startIndex
            // A line longer than a chunk is searched for its end only in the bytes just read.
            while let newline = Self.newline(in: buffer, from: max(lineStart, searchFrom)) {
                lineNumber += 1
                let line = buffer[lineStart..<newline]
                let lineOffset = bufferOffset + (lineStart - buffer.startIndex)
                lineStart = newline + 1
                guard !line.isEmpty else { continue }
                var notes = FieldNotes()
                guard LineChecksum.verify(line) != .mismatch,
                      let (change, schemaVersion) = try? SnapshotDecoding.change(line, notes: &notes, descriptions: .reference(file: file.number, base: UInt64(lineOffset)))
                else {
                    result.damagedLines.append(lineNumber)
                    continue
                }
                result.notes.merge(notes)
                if schemaVersion > journalLineSchemaVersion { result.hasNewerSchema = true }
                if change.videos.contains(where: { $0.descriptionReference != nil }) { result.descriptionFile = file }
                result.changes.append(change)
            }
            guard lineStart > buffer.startIndex else { continue }
            bufferOffset += lineStart - buffer.startIndex
            buffer = Data(buffer[lineStart...])
        }
        result.endOffset = bufferOffset
        result.incompleteTailBytes = buffer.count
        return result
    }

    /// The index of the first newline in `buffer` at or after `start`. Searched in the raw bytes:
    /// `Data`'s own search checks exclusive access at every byte, which was half of what a
    /// replay of a 1.7 MiB journal took.
    private static func newline(in buffer: Data, from start: Data.Index) -> Data.Index? {
        buffer.withUnsafeBytes { bytes -> Data.Index? in
            let offset = start - buffer.startIndex
            guard offset < bytes.count, let base = bytes.baseAddress,
                  let found = memchr(base + offset, 0x0A, bytes.count - offset) else { return nil }
            return buffer.startIndex + (base.distance(to: UnsafeRawPointer(found)))
        }
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

    /// Where an appended line went.
    struct AppendedLine {
        /// The file's size after the append.
        var end: Int
        /// The byte range in the file of each video's description literal, by the video's index
        /// in the change.
        var descriptionRanges: [Int: Range<Int>]
    }

    /// Appends `change` as one line and fsyncs it. A torn tail left by a crashed writer is cut off
    /// first; a failed write is rolled back so the file never ends in half a line. Descriptions
    /// held as references are copied from where they point (`descriptions`).
    func append(_ change: StoreChange, generation: Int, descriptions: DescriptionLiterals = .none) throws(StoreError) -> AppendedLine {
        let path = path(generation)
        let object: Data
        let objectRanges: [Int: Range<Int>]
        do {
            (object, objectRanges) = try SnapshotEncoding.change(change, descriptions: descriptions)
        } catch {
            throw .writeFailed(path: path, reason: "could not encode the change: \(error)")
        }
        // The sealed line is written in three pieces rather than built: a sync's object runs to
        // megabytes, and a sealed copy of it (grown once more for the newline) would double them.
        let opening = LineChecksum.opening(of: object)
        let lineLength = opening.count + (object.count - 1) + 1 // the object without its brace, then the newline
        let existed = access(path, F_OK) == 0
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: errnoText()) }
        defer { close(fd) }
        let end = try completeLength(fd, path: path)
        guard ftruncate(fd, off_t(end)) == 0, lseek(fd, off_t(end), SEEK_SET) >= 0 else {
            throw .writeFailed(path: path, reason: errnoText())
        }
        let written = opening.withUnsafeBytes { FileIO.writeAll(fd, $0) }
            ?? object.dropFirst().withUnsafeBytes { FileIO.writeAll(fd, $0) }
            ?? FileIO.writeAll(fd, Data([0x0A]))
        if let failure = written ?? (fsync(fd) == 0 ? nil : errno) {
            _ = ftruncate(fd, off_t(end))
            _ = fsync(fd)
            throw .writeFailed(path: path, reason: errnoText(failure))
        }
        if !existed { try FileIO.syncDirectory(of: path) }
        let shift = end + LineChecksum.sealedOffset(ofObjectOffset: 0)
        return AppendedLine(end: end + lineLength, descriptionRanges: objectRanges.mapValues { ($0.lowerBound + shift)..<($0.upperBound + shift) })
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
