import Foundation
import MeTubeCore
#if canImport(Glibc)
import Glibc
#endif

/// An advisory `flock` on the store's lock file, held for one write or one merge — never while
/// the store's in-process mutex is held.
struct FileLock {
    let path: String

    /// Runs `body` holding the exclusive lock; waits up to `timeout` for another process to let go.
    func withLock<T>(timeout: Duration, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: errnoText()) }
        defer { close(fd) }
        try acquire(fd, timeout: timeout)
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Runs `body` for a read that wants writers to have finished their lines: holding the lock
    /// when it can be had, without it on a store that cannot be written (a read-only disk, or no
    /// lock file and no room to make one). `body` learns whether the lock is held.
    func withReadLock<T>(timeout: Duration, _ body: (Bool) throws(StoreError) -> T) throws(StoreError) -> T {
        var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { fd = open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return try body(false) }
        defer { close(fd) }
        try acquire(fd, timeout: timeout)
        defer { flock(fd, LOCK_UN) }
        return try body(true)
    }

    private func acquire(_ fd: Int32, timeout: Duration) throws(StoreError) {
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.microseconds(200)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw .writeFailed(path: path, reason: errnoText()) }
            guard ContinuousClock.now < deadline else {
                throw .lockTimeout(path: path, seconds: timeout.seconds)
            }
            usleep(UInt32(pause.components.attoseconds / 1_000_000_000_000))
            pause = min(pause * 2, .milliseconds(2))
        }
    }
}
