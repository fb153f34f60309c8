import ArgumentParser
import Foundation
import MeTubeStore
import MeTubeTUI

/// `metube` / `metube tui`: the feed in the terminal, the default command.
struct TUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract: "Open the feed in the terminal (the default command).",
        discussion: "Keys are listed by ? inside the TUI and can be changed in the [keys] section of the config file."
    )

    @OptionGroup var store: StoreAccess

    @Option(name: .long, help: ArgumentHelp("Append timing figures (start to first frame, key to redrawn screen) as JSON lines to this file; - for standard error.", valueName: "file"))
    var timing: String?

    func run() throws {
        let started = ContinuousClock.now
        let opened = try store.openStore()
        let config: TUIConfig
        do {
            config = try TUIConfig(file: store.config())
        } catch let error as TUIError {
            throw fail(error.description, code: ExitStatus.badInput)
        }
        let options = TUIOptions(
            statusesKnown: try store.statusesKnown(opened),
            timingOutput: timing.map { $0 == "-" ? .standardError : .file($0) },
            startedAt: started
        )
        let status: Int32
        do {
            status = try runTUI(store: opened, config: config, options: options)
        } catch let error as TUIError {
            throw fail(error.description, code: ExitStatus.failure)
        }
        if status != 0 { throw ExitCode(status) }
    }
}
