import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeTUI

/// `metube` / `metube tui`: the feed in the terminal, the default command.
struct TUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Open the feed in the terminal (the default command).",
        discussion: "Keys are listed by ? inside the TUI and can be changed in the [keys] section of the config file."
    )

    @Option(name: .long, help: ArgumentHelp("Append timing figures (start to first frame, key to redrawn screen) as JSON lines to this file; - for standard error.", valueName: "file"))
    var timing: String?

    func run() throws {
        let started = ContinuousClock.now
        let store = try Store.open(at: StoreLocation.defaultDirectory())
        let config = try TUIConfig.load(from: ConfigFile.defaultURL())
        let output: TUIOptions.TimingOutput? = timing.map { $0 == "-" ? .standardError : .file($0) }
        let status = try runTUI(store: store, config: config, options: TUIOptions(timingOutput: output, startedAt: started))
        if status != 0 { throw ExitCode(status) }
    }
}
