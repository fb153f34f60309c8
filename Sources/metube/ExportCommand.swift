import Foundation
import ArgumentParser
import MeTubeCore
import MeTubeFeeds
import MeTubeStore

/// `metube export --opml [FILE]` and `metube export --backup FILE`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export subscriptions as OPML, or the whole store as one backup file.",
        discussion: "--opml writes the followed channels in the OPML newsboat and YouTube's subscription manager read. --backup holds channels, videos, marks, sync state and a manifest with the schema version and counts; `metube restore` reads it back."
    )

    @OptionGroup var store: StoreAccess

    @Flag(help: "Write the followed channels as OPML.")
    var opml = false

    @Option(name: .customLong("backup"), help: ArgumentHelp("Write a backup of the whole store to this file (- for stdout).", valueName: "file"))
    var backupPath: String?

    @Argument(help: "With --opml: the file to write (default: stdout).")
    var output: String = "-"

    func validate() throws {
        guard opml != (backupPath != nil) else { throw ValidationError("give exactly one of --opml and --backup FILE") }
    }

    func run() throws {
        let opened = try store.openStore()
        if let backupPath {
            let data = try withStoreErrors { () throws(StoreError) in try opened.exportBackup() }
            return try write(data, to: backupPath)
        }
        let channels = opened.library().channels.values.sorted { $0.displayName.localizedCaseInsensitiveCompare($1.displayName) == .orderedAscending }
        try write(Data(OPMLExport.render(channels).utf8), to: output)
    }

    private func write(_ data: Data, to path: String) throws {
        if path == "-" {
            FileHandle.standardOutput.write(data)
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw fail("could not write \(path): \(error.localizedDescription)", code: ExitStatus.ioError)
        }
    }
}
