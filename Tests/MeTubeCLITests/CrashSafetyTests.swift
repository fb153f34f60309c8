import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// Kills writer processes with SIGKILL at random moments while they mark and compact, and checks
/// after every kill that the store opens and holds every mark whose write had returned.
@Suite struct CrashSafetyTests {
    let metube = ProductBinary.url("metube")

    @Test func everyAcknowledgedMarkSurvivesSIGKILLDuringMarksAndCompactions() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["METUBE_CRASH_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
        var random = SplitMix64(seed: seed)
        let directory = TemporaryDirectory("metube-crash")
        defer { directory.remove() }
        var acknowledged: [String: WatchStatus] = [:]
        var nextVideo = 0
        for iteration in 0..<200 {
            // Given a marker streaming marks and a compactor looping, both killed after a random delay
            let count = 400
            let batch = (0..<count).map { offset -> (String, WatchStatus) in
                (SyntheticLibrary.videoID(nextVideo + offset), offset % 3 == 0 ? .skipped : .watched)
            }
            nextVideo += count
            let marker = try KilledWriter(metube, ["mark", "--stdin", "--force", "--data-dir", directory.url.path],
                                          input: batch.map { "\($0.0) \($0.1.rawValue)" }.joined(separator: "\n") + "\n")
            let compactor = try KilledWriter(URL(fileURLWithPath: "/bin/sh"),
                                             ["-c", "while :; do \"$0\" compact --data-dir \"$1\" >/dev/null 2>&1; done", metube.path, directory.url.path])
            usleep(UInt32(5_000 + random.next() % 250_000))
            compactor.kill()
            let lines = marker.kill()
            for line in lines {
                let words = line.split(separator: " ")
                guard words.count >= 2, let status = WatchStatus(rawValue: String(words[1])) else { continue }
                acknowledged[String(words[0])] = status
            }
            // Then the store opens and holds every acknowledged mark
            let store = try Store.open(at: directory.url)
            let marks = store.library().marks
            let missing = acknowledged.filter { marks[$0.key]?.status != $0.value }
            #expect(missing.isEmpty, "iteration \(iteration), seed \(seed): \(missing.count) acknowledged marks missing, e.g. \(missing.first.map { "\($0.key)" } ?? "")")
            if !missing.isEmpty { return }
        }
        #expect(acknowledged.count > 1_000, "seed \(seed): too few marks were acknowledged for the run to mean much")
    }
}

/// A process started in its own process group, so a SIGKILL reaches it and its children at once,
/// with its stdout collected line by line.
private final class KilledWriter: Sendable {
    private let process: Process
    private let output: Pipe

    init(_ executable: URL, _ arguments: [String], input: String? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = [executable.path] + arguments
        output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
        }
        try stdin.fileHandleForWriting.close()
    }

    /// Kills the whole group with SIGKILL, waits for it, and returns the complete lines it printed.
    @discardableResult
    func kill() -> [String] {
        Glibc.kill(-process.processIdentifier, SIGKILL)
        Glibc.kill(process.processIdentifier, SIGKILL)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let complete = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
        return complete.split(separator: "\n").map(String.init)
    }
}
