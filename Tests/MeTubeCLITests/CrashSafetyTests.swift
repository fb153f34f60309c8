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
        var iteration = 0
        // At least 200 kills, and more on a busy machine until enough writes were acknowledged.
        while iteration < 200 || (acknowledged.count <= 1_000 && iteration < 1_000) {
            defer { iteration += 1 }
            // Given a marker streaming marks and a compactor looping, both killed after a random delay
            let count = 400
            let batch = (0..<count).map { offset -> (String, WatchStatus) in
                (SyntheticLibrary.videoID(nextVideo + offset), offset % 3 == 0 ? .skipped : .watched)
            }
            nextVideo += count
            let marker = try KilledWriter(metube, ["mark", "--stdin", "--force", "--data-dir", directory.url.path],
                                          input: batch.map { "\($0.0) \($0.1.rawValue)" }.joined(separator: "\n") + "\n")
            let compactor = KilledCompactor(metube, directory: directory.url)
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

/// A process whose stdout is collected line by line until it is killed.
private final class KilledWriter: Sendable {
    private let process: Process
    private let output: Pipe

    init(_ executable: URL, _ arguments: [String], input: String) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }

    /// Kills the process with SIGKILL, waits for it, and returns the complete lines it printed.
    func kill() -> [String] {
        Glibc.kill(process.processIdentifier, SIGKILL)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let complete = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
        return complete.split(separator: "\n").map(String.init)
    }
}

/// Runs `metube compact` over and over on a thread of its own until killed; the kill hits
/// whichever compaction is running at that moment.
private final class KilledCompactor: Sendable {
    private let state = Mutex<(process: Process?, stopped: Bool)>((nil, false))
    private let finished = DispatchSemaphore(value: 0)

    init(_ metube: URL, directory: URL) {
        Thread.detachNewThread { [self] in
            while true {
                let process = Process()
                process.executableURL = metube
                process.arguments = ["compact", "--data-dir", directory.path]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                let started = state.withLock { state -> Bool in
                    guard !state.stopped, (try? process.run()) != nil else { return false }
                    state.process = process
                    return true
                }
                guard started else { break }
                process.waitUntilExit()
            }
            finished.signal()
        }
    }

    /// Kills the running compaction with SIGKILL and stops starting new ones.
    func kill() {
        state.withLock { state in
            state.stopped = true
            if let process = state.process, process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        }
        finished.wait()
    }
}

import Synchronization
