import ArgumentParser
import MeTubeStore

/// `metube compact`: folds the journal into new snapshots now.
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Fold the journal into new snapshots and rotate backups.",
        discussion: "metube compacts by itself when the journal grows; this does it now."
    )

    @OptionGroup var store: StoreAccess

    func run() throws {
        let opened = try store.openStore()
        try withStoreErrors { () throws(StoreError) in try opened.compact() }
        print("compacted \(opened.directory.path)")
    }
}
