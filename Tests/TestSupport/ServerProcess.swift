import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The real `metube-server` executable running as a child process: the one way tests and the
/// bench start a server. It reads the server's standard output as it comes, so a caller can wait
/// for the line that says where it listens, and every wait has a deadline.
public final class ServerProcess: Sendable {
    private let process: Process
    private let output: AsyncStream<String>
    private let termination: AsyncStream<Int32>
    private let printed = Mutex("")
    private let listeningURL = Mutex<String?>(nil)

    /// Starts `binary` (the built `metube-server` beside the running test or bench) with
    /// `arguments`; its standard error goes to `standardError` (discarded unless given).
    public init(arguments: [String], binary: URL = ProductBinary.url("metube-server"), standardError: FileHandle = .nullDevice) throws {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ServerProcessFailure("no \(binary.lastPathComponent) at \(binary.path) (`swift build` builds it)")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = standardError
        output = stdout.outputChunks()
        let (termination, terminationSink) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { finished in
            terminationSink.yield(finished.terminationStatus)
            terminationSink.finish()
        }
        try process.run()
        self.process = process
        self.termination = termination
    }

    /// Starts a server with `arguments` and returns once it says where it listens, failing after
    /// `limit`.
    public static func launch(
        _ arguments: [String], binary: URL = ProductBinary.url("metube-server"), standardError: FileHandle = .nullDevice,
        within limit: Duration = .seconds(60)
    ) async throws -> ServerProcess {
        let server = try ServerProcess(arguments: arguments, binary: binary, standardError: standardError)
        do {
            try await server.listening(within: limit)
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// `http://HOST:PORT` as the server printed it once it listens (see ``listening(within:)``).
    public var baseURL: String {
        listeningURL.withLock { $0 } ?? "http://127.0.0.1:0"
    }

    /// The server's process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Waits until the server prints that it is listening and returns its port, failing after `limit`.
    @discardableResult
    public func listening(within limit: Duration) async throws -> Int {
        let address = try await address(after: "listening on http://", within: limit)
        listeningURL.withLock { $0 = "http://" + address.hostAndPort }
        return address.port
    }

    /// Waits until the server prints a line with `prefix` followed by `HOST:PORT` and returns the
    /// port, failing after `limit`; lines printed earlier count too.
    public func port(after prefix: String, within limit: Duration) async throws -> Int {
        try await address(after: prefix, within: limit).port
    }

    private func address(after prefix: String, within limit: Duration) async throws -> (hostAndPort: String, port: Int) {
        try await withDeadline(limit, "the server did not print \(prefix)") { [self] in
            if let address = printedAddress(after: prefix) { return address }
            for await chunk in output {
                printed.withLock { $0 += chunk }
                if let address = printedAddress(after: prefix) { return address }
            }
            throw ServerProcessFailure("the server closed stdout without printing \(prefix)")
        }
    }

    /// The `HOST:PORT` printed after `prefix` on a whole line, and its port.
    private func printedAddress(after prefix: String) -> (hostAndPort: String, port: Int)? {
        printed.withLock { text in
            guard let range = text.range(of: prefix), text[range.upperBound...].contains("\n"),
                  let line = text[range.upperBound...].split(separator: "\n").first else { return nil }
            let hostAndPort = line.split(separator: "/").first ?? line
            return hostAndPort.split(separator: ":").last.flatMap { Int($0) }.map { (String(hostAndPort), $0) }
        }
    }

    /// Sends `signal` to the server.
    public func send(_ signal: Int32) { Glibc.kill(process.processIdentifier, signal) }

    /// Waits for the server to exit and returns its status, failing after `limit`.
    public func exit(within limit: Duration) async throws -> Int32 {
        let termination = termination
        return try await withDeadline(limit, "the server did not exit") {
            for await status in termination { return status }
            throw ServerProcessFailure("no exit status")
        }
    }

    /// Kills the server if it is still running.
    public func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// Kills the server if it is still running and waits until it is gone.
    public func stop() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The server's peak resident set size so far, in MiB (VmHWM from its /proc status).
    public func peakResidentMiB() -> Double {
        ProcessMemory.peakResidentMiB(of: process.processIdentifier)
    }

    /// The CPU time the server has used so far (user and system, all threads), in seconds.
    public func cpuSeconds() -> Double {
        // Fields 14 and 15 of /proc/PID/stat, counted after the command name's closing parenthesis
        // (the name may hold spaces).
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return .nan }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return .nan }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    deinit {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }
}

/// Why a server process could not be used.
public struct ServerProcessFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
