import ArgumentParser
import Foundation
import MeTubeStore

/// `metube restore FILE`: replaces the store with a backup, after checking it.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the store with a backup made by `metube export --backup`.",
        discussion: "The file is checked completely before anything is replaced; the replaced state is kept in the store's rotating backups."
    )

    @OptionGroup var store: StoreAccess

    @Argument(help: "The backup file.")
    var file: String

    @Flag(help: "Only check the file; change nothing.")
    var dryRun = false

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw fail("cannot read \(file)", code: ExitStatus.cannotOpenInput)
        }
        let manifest = try withStoreErrors { () throws(StoreError) in try Store.validateBackup(data) }
        if !dryRun {
            let opened = try store.openStore()
            try withStoreErrors { () throws(StoreError) in try opened.restore(from: data) }
        }
        print("\(dryRun ? "valid backup" : "restored"): \(manifest.channelCount) channels, \(manifest.videoCount) videos, \(manifest.markCount) marks (schema \(manifest.schemaVersion), made \(manifest.createdAt.formatted()))")
    }
}
