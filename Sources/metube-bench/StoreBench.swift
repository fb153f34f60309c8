import Foundation
import TestSupport
import MeTubeCore
import MeTubeStore

/// Figures of the store: open to first rows, mark durability, compaction, memory.
func storeFigures() async throws -> [Figure] {
    var figures: [Figure] = []
    for videoCount in [10_000, 50_000] {
        let label = "\(videoCount / 1000)k"
        let directory = try makeBenchStore(videos: videoCount)
        defer { try? FileManager.default.removeItem(at: directory) }

        let openSamples = try (0..<7).map { _ in
            try Measure.millis {
                let store = try Store.open(at: directory)
                let rows = FeedQuery(filter: .all).rows(in: store.library(), statusesKnown: true, limit: 100)
                precondition(rows.count == 100)
            }
        }
        figures.append(Figure(name: "store.open_to_100_rows.\(label)", value: Measure.median(openSamples), unit: "ms",
                              goal: videoCount == 10_000 ? "<= 50 ms" : "report", detail: "median of 7; \(videoCount) videos, 216 channels, \(videoCount) marks"))

        let store = try Store.open(at: directory)
        let library = store.library()
        let markSamples = try (0..<200).map { index in
            try Measure.millis { try store.mark(library.videos[index].id, as: index % 2 == 0 ? .watched : .skipped) }
        }
        figures.append(Figure(name: "store.mark_durable.\(label)", value: Measure.median(markSamples), unit: "ms",
                              goal: "<= 5 ms median", detail: "median of 200 journal append + fsync; p99 \(String(format: "%.2f", Measure.percentile(markSamples, 99))) ms"))
    }
    figures += try compactionFigures()
    return figures
}

/// Compaction and resident memory at 50,000 videos, measured in a child process so the peak
/// belongs to that work alone.
private func compactionFigures() throws -> [Figure] {
    let directory = try makeBenchStore(videos: 50_000)
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try runSelf(["--child-store-memory", directory.path])
    let values = output.split(separator: " ").compactMap { Double($0) }
    guard values.count == 3 else { throw BenchFailure("store memory child printed \(output)") }
    return [
        Figure(name: "store.peak_memory_loaded.50k", value: values[0], unit: "MiB", goal: "<= 60 MiB", detail: "VmHWM after open of 50,000 videos + 50,000 marks"),
        Figure(name: "store.compaction_time.50k", value: values[1], unit: "ms", goal: "report", detail: "fold journal into snapshots, 50,000 videos"),
        Figure(name: "store.compaction_peak_memory.50k", value: values[2], unit: "MiB", goal: "report", detail: "VmHWM after compaction"),
    ]
}

/// The child side of ``compactionFigures()``: prints "loadedMiB compactMillis peakMiB".
func runStoreMemoryChild(_ path: String) throws {
    let store = try Store.open(at: URL(fileURLWithPath: path))
    let loaded = Measure.peakResidentMiB()
    try store.mark(store.library().videos[0].id, as: .watched)
    let millis = try Measure.millis { try store.compact() }
    print(loaded, millis, Measure.peakResidentMiB())
}

/// Makes a compacted store of `videos` videos, 216 channels, as many marks, plus a short journal.
func makeBenchStore(videos: Int) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-bench-\(UUID().uuidString)")
    let generator = SyntheticLibrary(channelCount: 216, videoCount: videos, markCount: videos)
    let store = try Store.open(at: directory)
    try store.apply(StoreChange(marks: generator.marks(), videos: generator.videos(), channels: generator.channels()))
    try store.compact()
    for index in 0..<50 { try store.mark(SyntheticLibrary.videoID(index), as: .watched) }
    return directory
}

/// Runs this benchmark executable again with `arguments` and returns what it printed.
func runSelf(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchFailure("\(arguments.joined(separator: " ")) exited \(process.terminationStatus)") }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A benchmark that could not produce its figure.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
