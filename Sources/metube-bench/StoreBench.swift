import Foundation
import TestSupport
import MeTubeCore
import MeTubeStore

/// The library sizes the store and start-up figures are measured at.
let benchSizes = [10_000, 50_000, 200_000]

/// Figures of the store: open to first rows, mark durability, compaction, memory.
func storeFigures() async throws -> [Figure] {
    var figures: [Figure] = []
    for videoCount in benchSizes {
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
                              goal: "report", detail: "median of 7, full open; \(videoCount) videos, 216 channels, \(videoCount) marks"))

        figures.append(Figure(name: "store.head_to_100_rows.\(label)", value: Measure.median(headSamples(directory)), unit: "ms",
                              goal: "<= 50 ms", detail: "median of 7, head.json + journal, no full open"))
        figures += try listProcessFigures(directory: directory, label: label)

        let store = try Store.open(at: directory)
        let library = store.library()
        let step = max(1, videoCount / 500)
        let descriptionSamples = try stride(from: 0, to: videoCount, by: step).map { index in
            try Measure.millis { _ = try store.description(of: SyntheticLibrary.videoID(index)) }
        }
        figures.append(Figure(name: "store.description_on_demand.\(label)", value: Measure.median(descriptionSamples), unit: "ms", goal: "<= 5 ms",
                              detail: "median of \(descriptionSamples.count) videos across the library, one read from library.json each; p99 \(String(format: "%.3f", Measure.percentile(descriptionSamples, 99))) ms"))
        let markSamples = try (0..<200).map { index in
            try Measure.millis { try store.mark(library.videos[index].id, as: index % 2 == 0 ? .watched : .skipped) }
        }
        figures.append(Figure(name: "store.mark_durable.\(label)", value: Measure.median(markSamples), unit: "ms",
                              goal: "<= 5 ms median", detail: "median of 200 journal append + fsync; p99 \(String(format: "%.2f", Measure.percentile(markSamples, 99))) ms"))
        if videoCount == benchSizes.last { figures += try steadyStateFigures(directory: directory, videos: videoCount) }
    }
    for videoCount in [50_000, 200_000] { figures += try compactionFigures(videos: videoCount) }
    return figures
}

/// The start-up figures of the store in `directory` in daily use (``SteadyStateWrites``, no
/// compaction since), beside the ones just after a compaction; and how the head's replay grows with
/// the journal, written in steps up to twice those writes (the measurement the compaction
/// threshold is chosen from).
private func steadyStateFigures(directory: URL, videos: Int) throws -> [Figure] {
    let label = "\(videos / 1000)k"
    let library = SyntheticLibrary(channelCount: 216, videoCount: videos, markCount: videos)
    // The compaction before them kept every channel's fetch state in sync.json, as a user's has.
    try SteadyStateWrites(syncs: 1, marks: 0).apply(to: directory, library: library)
    try Store.open(at: directory).compact()
    let step = SteadyStateWrites(syncs: 5, marks: 500)
    var figures: [Figure] = []
    for round in 1...8 {
        let journal = try step.apply(to: directory, library: library, first: 1 + (round - 1) * step.syncs)
        let samples = headSamples(directory)
        if round == 4 {
            figures.append(Figure(name: "store.head_to_100_rows.steady.\(label)", value: Measure.median(samples), unit: "ms", goal: "<= 50 ms",
                                  detail: "median of 7, head.json + a \(journal / 1024) KiB journal \(SteadyStateWrites().summary)"))
            figures += try listProcessFigures(directory: directory, label: "steady.\(label)", detail: SteadyStateWrites().summary)
        }
        figures.append(Figure(name: "store.head_replay.journal-\(journal / 1024)KiB.\(label)", value: Measure.median(samples), unit: "ms", goal: "report",
                              detail: "median of 7, head.json + the journal after \(round * step.syncs) syncs and \(round * step.marks) marks"))
    }
    return figures
}

/// Seven timings of the newest 100 rows from `head.json` and the journals of the store in `directory`.
private func headSamples(_ directory: URL) -> [Double] {
    (0..<7).map { _ in
        Measure.millis {
            let head = Store.readHead(at: directory)
            precondition(head?.rows(FeedQuery(filter: .all), statusesKnown: true, limit: 100)?.count == 100)
        }
    }
}

/// `metube list --limit 100` as a whole process (exec to exit), on the store in `directory`.
private func listProcessFigures(directory: URL, label: String, detail: String = "") throws -> [Figure] {
    guard FileManager.default.isExecutableFile(atPath: metubeBinary.path) else { return [] }
    let samples = try (0..<7).map { _ in
        try Measure.millis {
            let process = Process()
            process.executableURL = metubeBinary
            process.arguments = ["list", "--limit", "100", "--filter", "all", "--data-dir", directory.path]
            process.environment = ["METUBE_CONFIG": directory.appendingPathComponent("none.toml").path, "HOME": directory.path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchFailure("metube list exited \(process.terminationStatus)") }
        }
    }
    return [Figure(name: "cli.list_limit_100.process.\(label)", value: Measure.median(samples), unit: "ms", goal: "<= 50 ms",
                   detail: "median of 7, `metube list --limit 100 --filter all`, exec to exit" + (detail.isEmpty ? "" : "; " + detail))]
}

/// Compaction and resident memory at `videos` videos, measured in `metube-bench-probe` so the peak
/// belongs to that work alone.
private func compactionFigures(videos: Int) throws -> [Figure] {
    let directory = try makeBenchStore(videos: videos)
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = try runProbe(["store-memory", directory.path])
    let values = output.split(separator: " ").compactMap { Double($0) } + [diskUseRatio(directory)]
    guard values.count == 5 else { throw BenchFailure("metube-bench-probe store-memory printed \(output)") }
    let label = "\(videos / 1000)k"
    return [
        Figure(name: "store.peak_memory_loaded.\(label)", value: values[0], unit: "MiB", goal: "<= 200 MiB",
               detail: "VmHWM after open of \(videos) videos (real-sized descriptions) + \(videos) marks"),
        Figure(name: "store.resident_memory_loaded.\(label)", value: values[3], unit: "MiB", goal: videos <= 50_000 ? "<= 60 MiB" : "<= 120 MiB",
               detail: "VmRSS after that open (what stays once the files are parsed)"),
        Figure(name: "store.compaction_time.\(label)", value: values[1], unit: "ms", goal: "report", detail: "fold journal into snapshots, \(videos) videos"),
        Figure(name: "store.compaction_peak_memory.\(label)", value: values[2], unit: "MiB", goal: "<= 200 MiB", detail: "VmHWM after compaction"),
        Figure(name: "store.disk_use_ratio.\(label)", value: values[4], unit: "x", goal: "< 1.5 x", detail: "store files (backups excluded) / snapshot files, after compaction"),
    ]
}

/// The store's live files (snapshots, journals, head; not backups) against its three snapshots.
private func diskUseRatio(_ directory: URL) -> Double {
    let (live, snapshots) = storeDiskUse(directory)
    return snapshots > 0 ? live / snapshots : .nan
}

/// Makes a compacted store of `videos` videos (titles and descriptions sized like real feeds'), 216
/// channels, as many marks, plus a short journal.
func makeBenchStore(videos: Int) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-bench-\(UUID().uuidString)")
    let store = try Store.open(at: directory)
    try SyntheticLibrary(channelCount: 216, videoCount: videos, markCount: videos).fill(store)
    for index in 0..<50 { try store.mark(SyntheticLibrary.videoID(index), as: .watched) }
    return directory
}

/// Runs `metube-bench-probe` (beside this executable) with `arguments` and returns what it printed.
func runProbe(_ arguments: [String]) throws -> String {
    let probe = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent().appendingPathComponent("metube-bench-probe")
    guard FileManager.default.isExecutableFile(atPath: probe.path) else {
        throw BenchFailure("no metube-bench-probe beside metube-bench (`swift build --product metube-bench-probe`)")
    }
    let process = Process()
    process.executableURL = probe
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchFailure("metube-bench-probe \(arguments.joined(separator: " ")) exited \(process.terminationStatus)") }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

/// A benchmark that could not produce its figure.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
