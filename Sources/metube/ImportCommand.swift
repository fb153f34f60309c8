import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore

/// `metube import FILE` or `metube import --youtube`: follows the channels in a subscription
/// export, or those of the signed-in YouTube account.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Follow the channels in a subscription file, or your YouTube subscriptions.",
        discussion: """
            Detects the format from the content: Google Takeout subscriptions.csv, YouTube or newsboat OPML, \
            NewPipe subscriptions.json, FreeTube profiles.db, a newsboat urls file, or a plain list of channel \
            ids or /channel/ URLs. Folders (OPML outlines, FreeTube profiles, newsboat tags) become the channels' \
            tags, added to the tags of channels already followed. Entries that cannot be used are reported with their line or field and a \
            reason; the good ones are imported. Exits 65 when the file matches no format or yields no channel. \
            With --youtube, reads the subscriptions of the account signed in with `metube youtube login` \
            and reports channels followed here but no longer subscribed there (--prune unfollows them); \
            a failure part way keeps what was read (exit 2).
            """
    )

    @OptionGroup var store: StoreAccess

    @Argument(help: "The file to import (- for stdin).")
    var file: String?

    @Flag(help: "Import the subscriptions of the YouTube account you signed in with.")
    var youtube = false

    @Flag(help: "With --youtube: unfollow channels that are no longer subscribed on YouTube.")
    var prune = false

    @Flag(help: "Only report what would be imported.")
    var dryRun = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        guard youtube != (file != nil) else { throw ValidationError("Give either a file to import or --youtube.") }
        guard !prune || youtube else { throw ValidationError("--prune goes with --youtube.") }
    }

    func run() async throws {
        if youtube { return try await importYouTube() }
        guard let file else { return }
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: file) else {
                throw fail("cannot read \(file)", code: ExitStatus.cannotOpenInput)
            }
            data = contents
        }
        let result: SubscriptionImport
        do {
            result = try SubscriptionImporter.read(data, fileName: file == "-" ? nil : (file as NSString).lastPathComponent)
        } catch {
            throw fail("\(file): \(error.description)", code: ExitStatus.badInput)
        }
        let opened = try store.openStore()
        let added = try withStoreErrors { () throws(StoreError) in
            try opened.transaction { transaction in
                let new = result.channels.filter { transaction.library.channels[$0.id] == nil }
                guard !dryRun else { return new.count }
                for channel in result.channels {
                    if transaction.library.channels[channel.id] == nil {
                        transaction.follow(channel)
                    } else if let tags = channel.tags, let known = transaction.subscription(of: channel.id) {
                        transaction.setTags(known.tags + tags, of: channel.id)
                    }
                }
                return new.count
            }
        }
        let report = ImportOutput(format: result.format.rawValue, added: added, alreadyPresent: result.channels.count - added,
                                  rejected: result.rejected, dryRun: dryRun)
        if json {
            try printJSON(report)
        } else {
            print("\(result.format.displayName): \(dryRun ? "would add" : "added") \(added), already present \(report.alreadyPresent), rejected \(result.rejected.count)")
            for entry in result.rejected { printError("rejected \(DisplayText.line(entry.description, limit: 300))") }
        }
        if result.channels.isEmpty { throw ExitCode(ExitStatus.badInput) }
    }
}

/// `metube import --json`.
struct ImportOutput: Encodable {
    var format: String
    var added: Int
    var alreadyPresent: Int
    var rejected: [RejectedEntry]
    var dryRun: Bool
}
