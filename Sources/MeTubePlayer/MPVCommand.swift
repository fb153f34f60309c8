import Foundation

/// The command line that starts mpv for one video: the `open` template (with `{url}` replaced,
/// else the URL appended) run by `/bin/sh` with `exec`, so the process metube waits for is mpv
/// itself, and metube's own options passed after it.
public struct MPVCommand: Sendable, Equatable {
    /// The default template when `[tui] open` is unset.
    public static let defaultTemplate = "mpv {url}"

    /// The template, e.g. `mpv --no-terminal {url}`.
    public var template: String

    /// A command for `template`, or the default one when it is `nil` or blank.
    public init(template: String?) {
        let trimmed = template?.trimmingCharacters(in: .whitespaces) ?? ""
        self.template = trimmed.isEmpty ? Self.defaultTemplate : trimmed
    }

    /// The shell command line for `url`, before metube's options.
    func shellLine(for url: String) -> String {
        let quoted = "'" + url.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let line = template.contains("{url}") ? template.replacingOccurrences(of: "{url}", with: quoted) : "\(template) \(quoted)"
        return "exec \(line) \"$@\""
    }

    /// The arguments of `/bin/sh` that play `url` with an IPC socket at `socketPath`, starting at
    /// `startSeconds` when given.
    func arguments(url: String, socketPath: String, startSeconds: Double?) -> [String] {
        var options = ["--input-ipc-server=\(socketPath)"]
        if let startSeconds, let text = Self.secondsText(startSeconds) { options.append("--start=\(text)") }
        return ["-c", shellLine(for: url), "mpv"] + options
    }

    /// `seconds` as mpv reads them (`12.345`), or `nil` when not a finite non-negative number.
    static func secondsText(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= 0 else { return nil }
        return String(format: "%.3f", seconds)
    }
}
