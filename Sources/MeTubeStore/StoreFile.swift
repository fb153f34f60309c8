import Foundation
import MeTubeCore
import MeTubeJSON
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One open file of the store, read by mapping it and, later, by byte range: a snapshot or a
/// journal whose descriptions the in-memory library refers to (``DescriptionReference``).
///
/// The file descriptor stays open for as long as a reference may need it, so a description is read
/// from exactly the file it was found in, even after a compaction has renamed another file over its
/// name or moved it into a backup. Every instance has a number of its own in this process.
final class StoreFile: Sendable {
    /// The path the file was opened at.
    let path: String
    /// This file's number in references to it.
    let number: UInt32
    /// The file as it was when opened (device, inode, size, change time).
    let identity: FileIdentity
    private let fd: Int32

    private static let numbers = Atomic<UInt32>(0)

    /// Opens `path` for reading; `nil` when it does not exist.
    init?(path: String) throws(StoreError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .readFailed(path: path, reason: errnoText())
        }
        var stats = stat()
        guard fstat(fd, &stats) == 0 else {
            let failure = errno
            close(fd)
            throw .readFailed(path: path, reason: errnoText(failure))
        }
        self.path = path
        self.fd = fd
        identity = FileIdentity(stats)
        number = Self.numbers.add(1, ordering: .relaxed).newValue
    }

    deinit { close(fd) }

    /// Of `files`, the one open on the same file as this one (same device and inode), else this.
    func reused(from files: [UInt32: StoreFile]) -> StoreFile {
        files.values.first { $0.identity.device == identity.device && $0.identity.inode == identity.inode } ?? self
    }

    /// The file's size now.
    func size() throws(StoreError) -> Int {
        var stats = stat()
        guard fstat(fd, &stats) == 0 else { throw .readFailed(path: path, reason: errnoText()) }
        return Int(stats.st_size)
    }

    /// Runs `body` over the whole file mapped into memory (read-only). `body` may call the release
    /// function it is given with an offset: the pages before it are given back (a snapshot of
    /// hundreds of megabytes is scanned without being resident at once). Store snapshots are only
    /// ever replaced by renaming, never truncated, so the mapping stays valid.
    func withMappedBytes<T>(_ body: (UnsafeBufferPointer<UInt8>, _ release: (Int) -> Void) throws(StoreError) -> T) throws(StoreError) -> T {
        let size = try size()
        guard size > 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) { _ in } }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw .readFailed(path: path, reason: errnoText())
        }
        defer { munmap(base, size) }
        _ = madvise(base, size, MADV_SEQUENTIAL)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var released = 0
        let bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: size)
        return try body(bytes) { offset in
            let end = min(offset, size) / page * page
            guard end > released else { return }
            _ = madvise(base + released, end - released, MADV_DONTNEED)
            released = end
        }
    }

    /// Reads `count` bytes at `offset`; fewer when the file ends first.
    func read(at offset: UInt64, count: Int) throws(StoreError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        let failure: Int32? = buffer.withUnsafeMutableBytes { raw in
            while done < count {
                let result = pread(fd, raw.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if result < 0 { if errno == EINTR { continue }; return errno }
                if result == 0 { break }
                done += result
            }
            return nil
        }
        if let failure { throw .readFailed(path: path, reason: errnoText(failure)) }
        return done == count ? buffer : Array(buffer.prefix(done))
    }

    /// The JSON string literal `reference` points at, quotes included, as written.
    func literal(_ reference: DescriptionReference) throws(StoreError) -> [UInt8] {
        let bytes = try read(at: reference.offset, count: Int(reference.length))
        guard bytes.count == Int(reference.length), bytes.first == UInt8(ascii: "\""), bytes.last == UInt8(ascii: "\"") else {
            throw .corrupt(path: path, reason: "the description at byte \(reference.offset) is not where it was found")
        }
        return bytes
    }

    /// The text of the description `reference` points at.
    func text(_ reference: DescriptionReference) throws(StoreError) -> String {
        let bytes = try literal(reference)
        do {
            return try bytes.withUnsafeBufferPointer { (buffer) throws(JSONScanner.Failure) -> String in
                var scanner = JSONScanner(buffer)
                let text = try scanner.readString()
                try scanner.expectEnd()
                return text
            }
        } catch {
            throw .corrupt(path: path, reason: "the description at byte \(reference.offset): \(error)")
        }
    }
}
