import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Thin, throwing wrappers over the POSIX calls the store needs for durability.
enum FileIO {
    /// Reads a whole file; `nil` when it does not exist.
    static func read(_ path: String) throws(StoreError) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .readFailed(path: path, reason: errnoText())
        }
        defer { close(fd) }
        return try readToEnd(fd, from: 0, path: path)
    }

    /// Reads from `offset` to the end of the open file `fd`.
    static func readToEnd(_ fd: Int32, from offset: Int, path: String) throws(StoreError) -> Data {
        var stats = stat()
        guard fstat(fd, &stats) == 0 else { throw .readFailed(path: path, reason: errnoText()) }
        let size = Int(stats.st_size)
        guard size > offset else { return Data() }
        var data = Data(count: size - offset)
        var done = 0
        let failure: Int32? = data.withUnsafeMutableBytes { buffer in
            while done < buffer.count {
                let count = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if count < 0 { if errno == EINTR { continue }; return errno }
                if count == 0 { break }
                done += count
            }
            return nil
        }
        if let failure { throw .readFailed(path: path, reason: errnoText(failure)) }
        return done == data.count ? data : data.prefix(done)
    }

    /// Writes all of `data` to `fd`; on failure returns the errno.
    static func writeAll(_ fd: Int32, _ data: Data) -> Int32? {
        data.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// Writes all of `bytes` to `fd`; on failure returns the errno.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var done = 0
        while done < bytes.count {
            let count = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 { if errno == EINTR { continue }; return errno }
            done += count
        }
        return nil
    }

    /// Replaces `path` atomically with `data`: write a temporary file in the same folder, fsync
    /// it, rename it over `path`, fsync the folder. On failure the old file is untouched.
    static func replaceAtomically(_ path: String, with data: Data) throws(StoreError) {
        try replaceAtomically(path) { fd throws(StoreError) in
            if let failure = writeAll(fd, data) { throw .writeFailed(path: path, reason: errnoText(failure)) }
        }
    }

    /// Replaces `path` atomically with what `write` writes to the open temporary file beside it
    /// (see ``replaceAtomically(_:with:)``).
    static func replaceAtomically(_ path: String, writing write: (Int32) throws(StoreError) -> Void) throws(StoreError) {
        let temporary = try stage(for: path, writing: write)
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw .writeFailed(path: path, reason: errnoText(failure))
        }
        try syncDirectory(of: path)
    }

    /// Creates a new temporary file beside `path`, lets `write` write it (through the open file
    /// descriptor it is given), fsyncs it and returns its path. On failure nothing is left behind.
    static func stage(for path: String, writing write: (Int32) throws(StoreError) -> Void) throws(StoreError) -> String {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: errnoText()) }
        do throws(StoreError) {
            try write(fd)
            guard fsync(fd) == 0 else { throw .writeFailed(path: path, reason: errnoText()) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        return temporary
    }

    /// Deletes the temporary files in `directory` left by processes that are gone (a write
    /// interrupted by a crash, a kill or an exit part way); those of this process and of any
    /// process still running are kept.
    ///
    /// Only names of the shape ``stage(for:writing:)`` and a compaction's switch give
    /// (`NAME.tmp-PID-NUMBER`, `NAME.previous-PID-NUMBER`) are considered.
    static func removeAbandonedTemporaries(in directory: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
            guard let pid = writerProcess(ofTemporary: name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(directory + "/" + name)
        }
    }

    /// The process id in a temporary file's name (`….tmp-PID-NUMBER` or `….previous-PID-NUMBER`),
    /// or nil when the name is not of that shape.
    private static func writerProcess(ofTemporary name: String) -> pid_t? {
        for marker in [".tmp-", ".previous-"] {
            guard let range = name.range(of: marker, options: .backwards) else { continue }
            let parts = name[range.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, UInt32(parts[1]) != nil else { return nil }
            return pid
        }
        return nil
    }

    /// Fsyncs the folder holding `path`, so a rename or a new file survives a crash.
    static func syncDirectory(of path: String) throws(StoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .writeFailed(path: directory, reason: errnoText()) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .writeFailed(path: directory, reason: errnoText()) }
    }

    /// Creates `path` and its parents when missing.
    static func makeDirectory(_ path: String) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: path, reason: error.localizedDescription)
        }
    }

    /// The identity of a file (device, inode, size, change time), `nil` when it does not exist.
    static func identity(_ path: String) -> FileIdentity? {
        var stats = stat()
        guard stat(path, &stats) == 0 else { return nil }
        return FileIdentity(stats)
    }
}

/// Enough of `stat` to tell whether a file was replaced or grew.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var changeSeconds: Int64
    var changeNanos: Int64

    /// The identity of the file `stats` describes.
    init(_ stats: stat) {
        self.init(device: UInt64(stats.st_dev), inode: UInt64(stats.st_ino), size: Int64(stats.st_size),
                  changeSeconds: Int64(stats.st_ctim.tv_sec), changeNanos: Int64(stats.st_ctim.tv_nsec))
    }

    init(device: UInt64, inode: UInt64, size: Int64, changeSeconds: Int64, changeNanos: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.changeSeconds = changeSeconds
        self.changeNanos = changeNanos
    }

    /// The identity as one string, for a derived file to record which snapshot it was cut from.
    var token: String { "\(device):\(inode):\(size):\(changeSeconds).\(changeNanos)" }
}
