import Foundation

/// The built executables of this package, found next to the running test bundle.
public enum ProductBinary {
    /// The directory holding the built products (`.build/debug` or `.build/release`).
    public static var directory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
        while url.path != "/", !FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("metube").path) {
            url.deleteLastPathComponent()
        }
        return url
    }

    /// The path of the executable `name` (e.g. `metube`, `metube-server`).
    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

/// What a finished process left.
public struct ProcessOutcome: Sendable {
    /// The exit status (or the signal number, when killed).
    public var status: Int32
    /// Everything it wrote to stdout.
    public var stdout: String
    /// Everything it wrote to stderr.
    public var stderr: String
}

/// Runs `executable` with `arguments` to completion, feeding it `input` on stdin.
public func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> ProcessOutcome {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let (stdout, stderr, stdin) = (Pipe(), Pipe(), Pipe())
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    let errorData = Mutex(Data())
    let errorReader = Thread { errorData.withLock { $0 = readToEnd(stderr.fileHandleForReading) } }
    errorReader.start()
    let outputData = readToEnd(stdout.fileHandleForReading)
    process.waitUntilExit()
    while errorReader.isExecuting || !errorReader.isFinished { usleep(1_000) }
    return ProcessOutcome(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                          stderr: errorData.withLock { String(decoding: $0, as: UTF8.self) })
}

/// ``runProcess(_:_:environment:input:)`` on a thread of its own, so that a test waiting for a
/// process that talks to an in-process server (whose handlers run on the cooperative pool) does
/// not hold one of the pool's few threads while it waits.
public func runProcessOffPool(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessOutcome {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try runProcess(executable, arguments, environment: environment) }) }.start()
    }
}

/// Everything `handle` delivers until its end. Unlike `readDataToEndOfFile()`, which traps when a
/// signal interrupts the read (EINTR), an interrupted read is simply tried again.
private func readToEnd(_ handle: FileHandle) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            data.append(contentsOf: buffer[0..<count])
        } else if count == 0 || errno != EINTR {
            return data
        }
    }
}

import Synchronization

extension Pipe {
    /// What a child process writes into this pipe, chunk by chunk as it comes; finishes when the
    /// writing end closes (the child ended).
    public func outputChunks() -> AsyncStream<String> {
        let (chunks, sink) = AsyncStream.makeStream(of: String.self)
        fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                sink.finish()
            } else {
                sink.yield(String(decoding: data, as: UTF8.self))
            }
        }
        return chunks
    }
}
