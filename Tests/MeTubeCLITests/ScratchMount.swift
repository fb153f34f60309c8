import Foundation
import TestSupport

/// A small tmpfs of its own, for tests of a really full or read-only disk (needs root).
struct ScratchMount {
    let directory: TemporaryDirectory

    /// Whether this machine lets the tests mount a tmpfs.
    static let isAvailable: Bool = {
        guard let mount = try? ScratchMount(sizeKiB: 64) else { return false }
        mount.remove()
        return true
    }()

    init(sizeKiB: Int) throws {
        directory = TemporaryDirectory()
        let outcome = try runProcess(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=\(sizeKiB)k", "tmpfs", directory.url.path])
        guard outcome.status == 0 else {
            directory.remove()
            throw MountFailure(reason: outcome.stderr)
        }
    }

    struct MountFailure: Error {
        var reason: String
    }

    var url: URL { directory.url }

    /// Fills the remaining space.
    func fill() throws {
        _ = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "dd if=/dev/zero of=\"$0/filler\" bs=4k 2>/dev/null; true", url.path])
    }

    /// Frees what ``fill()`` took.
    func unfill() { unlink(url.appendingPathComponent("filler").path) }

    /// Makes the mount read-only.
    func remountReadOnly() throws {
        let outcome = try runProcess(URL(fileURLWithPath: "/bin/mount"), ["-o", "remount,ro", url.path])
        guard outcome.status == 0 else { throw MountFailure(reason: outcome.stderr) }
    }

    func remove() {
        _ = try? runProcess(URL(fileURLWithPath: "/bin/umount"), [url.path])
        directory.remove()
    }
}
