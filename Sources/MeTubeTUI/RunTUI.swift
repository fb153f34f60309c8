internal import CNcursesw
import Foundation
import MeTubeCore

/// Runs the TUI on the process's terminal until the user quits, over the library of `store`.
///
/// The first frame comes from the store before anything else happens; sync events arrive through
/// `options`. The terminal is restored however this ends. Returns the exit status: 0 after `q`,
/// 128 + the signal number after SIGINT, SIGTERM or SIGHUP. Throws ``TUIError`` when the terminal
/// cannot be used.
public func runTUI(store: some LibrarySource, config: TUIConfig, options: TUIOptions = TUIOptions()) throws -> Int32 {
    setlocale(LC_ALL, "")
    let unicode = cnc_locale_is_utf8() != 0 && !config.forceASCII
    let environment = ProcessInfo.processInfo.environment
    let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
    let signals = TerminalGuard()
    var config = config
    // Asked before curses takes the terminal; pictures without colour are symbols anyway. An
    // answer that comes too late is dropped by the screen rather than read as keys.
    var probe: TerminalProbe?
    config.thumbnails = config.thumbnails.resolved(environment: environment) {
        probe = noColor ? nil : TerminalProbe.ask(within: .milliseconds(150))
        return probe
    }
    let terminal = try CursesScreen(useColors: !noColor, inputTimeout: .milliseconds(50), probeAnswerOwed: probe.map { !$0.answered } ?? false)
    var timing: [String] = []
    let status: Int32
    do {
        defer { terminal.close() }
        var loop = TUILoop(source: store, terminal: terminal, config: config, options: options, unicode: unicode)
        status = loop.run(signals: signals)
        timing = loop.timingLines
    }
    writeTiming(timing, to: options.timingOutput)
    return status
}

private func writeTiming(_ lines: [String], to output: TUIOptions.TimingOutput?) {
    guard let output, !lines.isEmpty else { return }
    let data = Data(lines.map { $0 + "\n" }.joined().utf8)
    switch output {
    case .standardError:
        FileHandle.standardError.write(data)
    case .file(let path):
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            FileHandle.standardError.write(Data("metube: cannot write timing to \(path)\n".utf8))
            return
        }
        handle.seekToEndOfFile()
        handle.write(data)
        try? handle.close()
    }
}
