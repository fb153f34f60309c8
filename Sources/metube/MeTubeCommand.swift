import ArgumentParser
import Foundation
import MeTubeCore
#if canImport(Glibc)
import Glibc
#endif

/// `metube`: the YouTube subscription feed in the terminal, and the commands scripts use.
@main
struct MeTubeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metube",
        abstract: "Your YouTube subscription feed in the terminal: mark videos watched or skipped, synced across devices.",
        discussion: ExitStatus.help,
        version: MeTubeVersion.current,
        subcommands: [
            TUICommand.self, ListCommand.self, ShowCommand.self, MarkCommand.self, RulesCommand.self, PlayCommand.self, SyncCommand.self, ChannelsCommand.self, StatusCommand.self, ImportCommand.self, ConfigCommand.self,
            ExportCommand.self, RestoreCommand.self, DoctorCommand.self, CompactCommand.self, LoginCommand.self, YouTubeCommand.self, QueueCommand.self, DownloadCommand.self,
        ],
        defaultSubcommand: TUICommand.self
    )

    /// Parses and runs the command, logging its start and end. A write beyond a file-size limit
    /// must fail with an error the store reports (nothing changed), not kill the process, so
    /// SIGXFSZ is ignored.
    static func main() async {
        signal(SIGXFSZ, SIG_IGN)
        MeTubeLog.bootstrap()
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            var command = try parseAsRoot(IDArguments.protectingLeadingDashes(arguments))
            let words = arguments.prefix { !$0.hasPrefix("-") }.prefix(3).map { DisplayText.line($0, limit: 40) }
            MeTubeLog.command.info("start \((["metube"] + words).joined(separator: " "))")
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            MeTubeLog.command.info("exit 0")
        } catch {
            MeTubeLog.command.info("exit \(exitCode(for: error).rawValue)")
            exit(withError: error)
        }
    }
}
