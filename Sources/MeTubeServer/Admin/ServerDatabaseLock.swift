import Foundation

/// The advisory lock a serving `metube-server` holds on `DATABASE.lock` beside its database, so
/// that `restore` can tell the file is in use.
///
/// The lock is an exclusive `flock` on a file of its own, taken with `LOCK_NB`: the kernel drops it
/// when the holder exits, even when killed, so a stale lock file never blocks a restore.
public final class ServerDatabaseLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock for the database at `databasePath`, or throws ``ServerError/StorageFailure/busy(_:)``
    /// when another process holds it.
    public init(databasePath: String) throws {
        let lockPath = Self.lockPath(forDatabase: databasePath)
        let descriptor = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ServerError.invalidConfiguration("cannot open the lock file \(lockPath): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw ServerError.storage(.busy("a running metube-server holds \(databasePath); stop it first"))
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The lock file of the database at `path`: `PATH.lock`.
    public static func lockPath(forDatabase path: String) -> String { path + ".lock" }
}
