import Foundation

/// A program running in a detached tmux session on a private tmux server: how the end-to-end
/// tests and the benchmarks drive the real `metube` binary as a user would, with keys in and the
/// screen's text out.
public final class TmuxSession: Sendable {
    /// The private server's socket file.
    public let socket: String
    private static let target = "metube"

    /// Starts `command` in a `width` × `height` session with `environment` added to a clean
    /// UTF-8 environment.
    public init(command: [String], environment: [String: String] = [:], width: Int = 100, height: Int = 30) throws {
        socket = FileManager.default.temporaryDirectory.appendingPathComponent("metube-tmux-\(UUID().uuidString)").path
        var variables = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "tmux-256color", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        variables.merge(environment) { _, new in new }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let script = "trap : INT TERM HUP; \"$@\"; echo $? > '\(statusPath)'; exec sleep 3600"
        try run(["new-session", "-d", "-s", Self.target, "-x", "\(width)", "-y", "\(height)", "--", "env", "-i"] + assignments + ["/bin/sh", "-c", script, "sh"] + command)
    }

    /// Where the shell that runs the program writes its exit status.
    private var statusPath: String { socket + ".status" }

    /// Sends keys as tmux names them (`j`, `Enter`, `Escape`, `PPage`, `C-c`).
    public func send(_ keys: String...) throws {
        try run(["send-keys", "-t", Self.target] + keys)
    }

    /// Types `text` literally.
    public func type(_ text: String) throws {
        try run(["send-keys", "-t", Self.target, "-l", text])
    }

    /// The screen's text now.
    public func capture() throws -> String {
        try run(["capture-pane", "-p", "-t", Self.target])
    }

    /// The screen now with its colours and attributes as escape sequences (`capture-pane -e`).
    public func captureWithEscapes() throws -> String {
        try run(["capture-pane", "-p", "-e", "-t", Self.target])
    }

    /// How long a wait for the screen lasts at most unless told: long enough for a cold start of a
    /// debug build on a loaded machine. Only a failing test waits that long.
    public static let screenTimeout = Duration.seconds(60)

    /// Polls the screen until `condition` holds and returns that screen; throws when `timeout`
    /// passes first, with the last screen in the error.
    @discardableResult
    public func waitFor(timeout: Duration = screenTimeout, _ condition: (String) -> Bool) throws -> String {
        let deadline = ContinuousClock.now + timeout
        var screen = ""
        while ContinuousClock.now < deadline {
            screen = try capture()
            if condition(screen) { return screen }
            usleep(5_000)
        }
        throw TmuxError.screenTimedOut(screen: screen)
    }

    /// ``waitFor(timeout:_:)`` for async tests: sleeps between looks rather than blocking a
    /// thread, since a loopback server in the test process needs the cooperative threads (two on
    /// a two-core machine). With `escapes`, the screen is captured with its colours.
    @discardableResult
    public func waitFor(timeout: Duration = screenTimeout, escapes: Bool = false, _ condition: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        var screen = ""
        while ContinuousClock.now < deadline {
            screen = try escapes ? captureWithEscapes() : capture()
            if condition(screen) { return screen }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TmuxError.screenTimedOut(screen: screen)
    }

    /// Waits for the program to end, sleeping between looks, and returns its exit status; `nil`
    /// when it still runs after `timeout`.
    public func waitForExit(timeout: Duration = screenTimeout) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let status = try exitStatus() { return status }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Appends every byte the program writes to its terminal to the file at `path`, from now on
    /// (`pipe-pane`): the escapes that `capture-pane` does not keep (kitty graphics, sixel).
    public func recordOutput(to path: String) throws {
        try run(["pipe-pane", "-o", "-t", Self.target, "cat >> '\(path)'"])
    }

    /// Resizes the session's window.
    public func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", Self.target, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The program's exit status once it has ended (128 + the signal when a signal ended it),
    /// `nil` while it runs. A shell around the program writes it to a file, so it does not depend
    /// on when tmux notices the pane's end.
    public func exitStatus() throws -> Int32? {
        guard let data = FileManager.default.contents(atPath: statusPath), let text = String(data: data, encoding: .utf8),
              text.hasSuffix("\n") else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The tmux server's process id.
    public func serverProcessID() throws -> pid_t {
        let text = try run(["display-message", "-p", "-t", Self.target, "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = pid_t(text) else { throw TmuxError.commandFailed(command: "display-message", message: "no process id in \(text.debugDescription)") }
        return pid
    }

    /// The path of the terminal the program runs on, e.g. `/dev/pts/3`.
    public func paneTerminal() throws -> String {
        try run(["display-message", "-p", "-t", Self.target, "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the session and its server.
    public func close() {
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(atPath: socket)
        try? FileManager.default.removeItem(atPath: statusPath)
    }

    deinit { close() }

    /// Runs one tmux command and returns its output.
    ///
    /// It uses `posix_spawn` rather than `Process`: the tmux server that the first command starts
    /// keeps the descriptors it inherited, which would keep `Process` (and pipes) waiting forever.
    /// Output goes through files, and the child starts with no signals blocked, whatever the
    /// calling thread blocks.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let outputPath = socket + ".out"
        let errorPath = socket + ".err"
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = (["tmux", "-f", "/dev/null", "-S", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, "tmux", &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw TmuxError.commandFailed(command: arguments.first ?? "", message: "cannot start tmux: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
        guard status == 0 else {
            let message = String(decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self)
            throw TmuxError.commandFailed(command: arguments.first ?? "", message: message)
        }
        return output
    }
}
