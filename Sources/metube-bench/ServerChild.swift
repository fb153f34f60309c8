import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport

/// A release `metube-server` child process (the binary beside this one) on a loopback port,
/// killed by ``stop()``.
final class ServerChild: Sendable {
    /// The `metube-server` executable next to `metube-bench`.
    static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent().appendingPathComponent("metube-server")
    }

    /// `http://127.0.0.1:PORT`.
    let baseURL: String
    private let process: Process

    private init(baseURL: String, process: Process) {
        self.baseURL = baseURL
        self.process = process
    }

    /// Starts `metube-server` with `arguments` and returns once it printed where it listens.
    static func start(_ arguments: [String]) async throws -> ServerChild {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchFailure("no metube-server beside metube-bench (`swift build -c release` builds both)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        let chunks = stdout.outputChunks()
        try process.run()
        var printed = ""
        for await chunk in chunks {
            printed += chunk
            if let range = printed.range(of: "listening on http://"), let line = printed[range.upperBound...].split(separator: "\n").first,
               printed[range.upperBound...].contains("\n") {
                return ServerChild(baseURL: "http://" + (line.split(separator: "/").first ?? line), process: process)
            }
        }
        throw BenchFailure("metube-server \(arguments.joined(separator: " ")) ended without listening")
    }

    /// Starts the server on the SQLite file `databasePath`, seeded with the demo library, without
    /// polling, throttling or registration limits.
    static func start(databasePath: String) async throws -> ServerChild {
        try await start([
            "serve", "--database", databasePath, "--port", "0", "--demo", "--demo-interval", "86400", "--poll-interval", "0",
            "--status-rate", "0", "--register-limit", "0", "--max-connections", "1000", "--log-level", "critical",
        ])
    }

    /// The server's peak resident set size so far, in MiB (VmHWM from its /proc status).
    func peakResidentMiB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
        return kib / 1024
    }

    /// The CPU time the server has used so far (user and system, all threads), in seconds.
    func cpuSeconds() -> Double {
        // Fields 14 and 15 of /proc/PID/stat, counted after the command name's closing parenthesis
        // (the name may hold spaces).
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Kills the server and waits for it.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
