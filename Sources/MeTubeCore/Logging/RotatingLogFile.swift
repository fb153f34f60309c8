import Foundation
import Synchronization

/// An append-only log file that rotates by size: when a write would take it past
/// ``maximumBytes`` it becomes `NAME.1` (the older ones `NAME.2` … `NAME.<keep>`, the oldest
/// dropped) and a new file starts. Created with mode 0600 in a directory of mode 0700; a file or
/// directory that already exists wider is narrowed to those modes at the first write. Writes that
/// fail (full disk, read-only home) are dropped: logging never stops metube.
public final class RotatingLogFile: Sendable {
    /// The log file.
    public let url: URL
    /// The size at which the file rotates.
    public let maximumBytes: Int
    /// How many rotated files are kept.
    public let keep: Int
    /// Secrets never written, e.g. the user's token.
    private let secrets = Mutex<[String]>([])
    /// Whether the file and its directory have been narrowed to 0600 / 0700 by this instance.
    private let narrowed = Mutex<Bool>(false)

    /// A log file at `url`.
    public init(url: URL, maximumBytes: Int = 1 << 20, keep: Int = 3) {
        self.url = url
        self.maximumBytes = max(maximumBytes, 1_024)
        self.keep = max(keep, 1)
    }

    /// metube's log file: `$XDG_STATE_HOME/metube/metube.log`, else
    /// `~/.local/state/metube/metube.log`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true).appendingPathComponent(".local/state", isDirectory: true)
        }
        return base.appendingPathComponent("metube/metube.log")
    }

    /// Never writes `secret` from now on.
    public func redact(_ secret: String) {
        secrets.withLock { $0.append(secret) }
    }

    /// `text` with the registered secrets and token values masked (``LogRedaction``).
    public func redacted(_ text: String) -> String {
        LogRedaction.redact(text, secrets: secrets.withLock { $0 })
    }

    /// Appends `line` (a newline is added), redacted, rotating first when the file is full.
    public func append(_ line: String) {
        let text = redacted(line) + "\n"
        let data = Data(text.utf8)
        narrowed.withLock { narrowed in
            let directory = url.deletingLastPathComponent()
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            if size() + data.count > maximumBytes { rotate() }
            let descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            if !narrowed {
                narrowed = chmod(directory.path, 0o700) == 0 && fchmod(descriptor, 0o600) == 0
            }
            _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        }
    }

    private func size() -> Int {
        var status = stat()
        return stat(url.path, &status) == 0 ? Int(status.st_size) : 0
    }

    private func rotate() {
        let path = url.path
        unlink("\(path).\(keep)")
        for index in stride(from: keep - 1, through: 1, by: -1) {
            rename("\(path).\(index)", "\(path).\(index + 1)")
        }
        rename(path, "\(path).1")
    }
}
