import Foundation

/// `metube-bench [SUITE…]`: runs the benchmark suites (all by default), prints a table, and one
/// JSON line per figure.
let suites: [(name: String, run: () async throws -> [Figure])] = [
    ("store", storeFigures),
    ("server", serverFigures),
    ("flood", connectionFloodFigures),
    ("quota", quotaFloodFigures),
    ("hub-sync", hubSyncFigures),
    ("status", markSyncFigures),
    ("tui", tuiFigures),
    ("thumbnails", thumbnailFigures),
    ("sync", syncScaleFigures),
    ("playback", playbackFigures),
    ("postgres", postgresFigures),
    ("views", viewsFigures),
    ("queue", queueFigures),
    ("downloads", downloadsFigures),
    ("feed-outage", feedOutageFigures),
    ("premiere", premiereFigures),
    ("network", networkFigures),
    ("backfill", backfillFigures),
    ("resolve", resolveFigures),
]

let requested = Set(CommandLine.arguments.dropFirst())
if requested.contains("--help") || requested.contains("-h") {
    print("usage: metube-bench [\(suites.map(\.name).joined(separator: "|"))]…\nRuns the named suites (all by default) and prints their figures.")
    exit(0)
}
var figures: [Figure] = []
for suite in suites where requested.isEmpty || requested.contains(suite.name) {
    FileHandle.standardError.write(Data("bench: running \(suite.name)…\n".utf8))
    figures += try await suite.run()
}
let nameWidth = max(6, figures.map(\.name.count).max() ?? 0)
print("figure".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  " + "value".padding(toLength: 14, withPad: " ", startingAt: 0) + "  goal          verdict  detail")
for figure in figures {
    let value = String(format: "%.2f %@", figure.value, figure.unit)
    print(figure.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  " + value.padding(toLength: 14, withPad: " ", startingAt: 0) + "  "
        + figure.goal.padding(toLength: 12, withPad: " ", startingAt: 0) + "  " + figure.verdict.padding(toLength: 7, withPad: " ", startingAt: 0) + "  " + figure.detail)
}
for figure in figures { print(figure.jsonLine) }
let missed = figures.filter { $0.met == false }.map(\.name)
if !missed.isEmpty { FileHandle.standardError.write(Data("bench: \(missed.count) of \(figures.filter { $0.met != nil }.count) goals not met: \(missed.joined(separator: ", "))\n".utf8)) }
