import Foundation
#if canImport(Glibc)
import Glibc
import MeTubeCore
import MeTubeDownloads
#endif

/// One run of a catalog program (yt-dlp) with an argument list — never through a shell — on a
/// thread of its own: killed at its deadline or when its standard output outgrows
/// ``Limits/maxOutputBytes`` or ``Limits/maxOutputLines``; standard error is read through a
/// ``BoundedLineReader`` and only its last line kept.
struct CatalogProcess: Sendable {
    /// How much a run may print and how long it may take.
    struct Limits: Sendable {
        /// The most bytes of standard output kept; more kills the run.
        var maxOutputBytes = 8 << 20
        /// The most lines of standard output; more kills the run.
        var maxOutputLines = 100_000
        /// How long the run may take.
        var deadline: Duration = .seconds(60)
    }

    /// What a finished run left.
    struct Output: Sendable {
        /// Its standard output.
        var stdout: Data
        /// Its exit status.
        var status: Int32
        /// The last non-empty line on standard error, sanitized, or "".
        var lastErrorLine: String
    }

    /// The executable run.
    var executable: URL
    /// The bounds of a run.
    var limits: Limits

    /// Runs the program with `arguments`; cancelling the task kills it.
    func run(_ arguments: [String]) async throws(YouTubeError) -> Output {
        let stop = StopSignal()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Output, YouTubeError>, Never>) in
                Thread.detachNewThread { continuation.resume(returning: runBlocking(arguments, stop: stop)) }
            }
        } onCancel: {
            stop.raise()
        }
        return try result.get()
    }

    private func runBlocking(_ arguments: [String], stop: StopSignal) -> Result<Output, YouTubeError> {
        let output = Pipe()
        let errors = Pipe()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return .failure(.missingExecutable(executable.path))
        }
        try? output.fileHandleForWriting.close()
        try? errors.fileHandleForWriting.close()
        defer {
            try? output.fileHandleForReading.close()
            try? errors.fileHandleForReading.close()
        }
        var watch = Watch(limits: limits)
        let start = ContinuousClock.now
        let outputFD = output.fileHandleForReading.fileDescriptor
        var open = [outputFD, errors.fileHandleForReading.fileDescriptor]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        func kill() { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
        while !open.isEmpty {
            if stop.isRaised || watch.overflow != nil {
                kill()
                break
            }
            if ContinuousClock.now - start > limits.deadline {
                watch.timedOut = true
                kill()
                break
            }
            var pollers = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&pollers, nfds_t(pollers.count), 100) > 0 else { continue }
            for poller in pollers where poller.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(poller.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer.withUnsafeBytes { bytes in
                        let chunk = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
                        if poller.fd == outputFD {
                            watch.takeOutput(chunk)
                        } else {
                            watch.takeError(chunk)
                        }
                    }
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == poller.fd }
                }
            }
        }
        process.waitUntilExit()
        watch.finish()
        if stop.isRaised { return .failure(.cancelled) }
        if watch.timedOut { return .failure(.timedOut(seconds: max(1, Int(limits.deadline.components.seconds)))) }
        if let overflow = watch.overflow { return .failure(.garbage(overflow)) }
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return .success(Output(stdout: watch.stdout, status: status, lastErrorLine: watch.lastErrorLine))
    }

    /// What reading a run's two outputs found.
    private struct Watch {
        let limits: Limits
        var stdout = Data()
        var lines = 0
        var errorLines = BoundedLineReader(maximumLineBytes: 2_048)
        var lastErrorLine = ""
        var overflow: String?
        var timedOut = false

        mutating func takeOutput(_ chunk: UnsafeRawBufferPointer) {
            guard stdout.count + chunk.count <= limits.maxOutputBytes else {
                overflow = "yt-dlp printed more than \(limits.maxOutputBytes) bytes"
                return
            }
            stdout.append(contentsOf: chunk)
            lines += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            if lines > limits.maxOutputLines { overflow = "yt-dlp printed more than \(limits.maxOutputLines) lines" }
        }

        mutating func takeError(_ chunk: UnsafeRawBufferPointer) {
            for line in errorLines.feed(chunk) { keep(line) }
        }

        mutating func finish() {
            if let line = errorLines.finish() { keep(line) }
        }

        private mutating func keep(_ line: Substring) {
            let text = DisplayText.line(line.trimmingCharacters(in: .whitespaces), limit: 300)
            if !text.isEmpty { lastErrorLine = text }
        }
    }
}
