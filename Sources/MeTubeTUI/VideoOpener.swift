import Foundation

/// Starts the configured player or browser for a video, without waiting for it.
struct VideoOpener: Sendable {
    /// The command template; `{url}` is replaced by the shell-quoted URL, else the URL is appended.
    let template: String

    /// An opener for `command`, or for `$BROWSER` / `xdg-open` when `command` is `nil`.
    init(command: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        if let command {
            template = command
        } else if let browser = environment["BROWSER"], !browser.isEmpty {
            template = browser
        } else {
            template = "xdg-open"
        }
    }

    /// The shell command line that opens `url`.
    func commandLine(for url: String) -> String {
        let quoted = "'" + url.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return template.contains("{url}") ? template.replacingOccurrences(of: "{url}", with: quoted) : "\(template) \(quoted)"
    }

    /// Starts the command for `url` with its output discarded; `completion` gets whether it exited
    /// with status 0 and a description of how it ended.
    func open(_ url: String, completion: @escaping @Sendable (Bool, String) -> Void) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", commandLine(for: url)]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { finished in
            let status = finished.terminationStatus
            let detail = status == 127 ? "command not found: \(template)" : "\(template) exited with status \(status)"
            completion(status == 0 && finished.terminationReason == .exit, detail)
        }
        do {
            try process.run()
        } catch {
            completion(false, "cannot start /bin/sh: \(error.localizedDescription)")
        }
    }
}
