import Foundation

/// A small file replaced whole: a reader sees the old content or the new, never a part, and a
/// secret is never readable by others, not even for a moment.
public enum AtomicFile {
    /// Writes `data` to a temporary file of `mode` next to `file`, syncs it, and renames it over
    /// `file`.
    public static func replace(_ file: URL, with data: Data, mode: mode_t) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary.path]) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
            guard rename(temporary.path, file.path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
        } catch {
            unlink(temporary.path)
            throw error
        }
    }
}
