import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore

/// `metube export --backup FILE`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the whole store as one backup file.",
        discussion: "The backup holds channels, videos, marks, sync state and a manifest with the schema version and counts; `metube restore` reads it back."
    )

    @OptionGroup var store: StoreAccess

    @Option(name: .customLong("backup"), help: ArgumentHelp("Write a backup of the whole store to this file (- for stdout).", valueName: "file"))
    var backupPath: String

    func run() throws {
        let opened = try store.openStore()
        let data = try withStoreErrors { () throws(StoreError) in try opened.exportBackup() }
        try write(data, to: backupPath)
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
