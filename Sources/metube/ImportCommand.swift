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
            ids, @handles, or channel, handle, /c/, /user/ or video links (handles, names and videos are resolved as \
            `metube channels add` resolves them, with progress on stderr). Folders (OPML outlines, FreeTube profiles, newsboat tags) become the channels' \
            tags, added to the tags of channels already followed. Entries that cannot be used are reported with their line or field and a \
            reason; the good ones are imported. Exits 65 when the file matches no format or yields no channel, and 2 when \
            some links could not be resolved (the rest are imported). \
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
        var result: SubscriptionImport
        do {
            result = try SubscriptionImporter.read(data, fileName: file == "-" ? nil : (file as NSString).lastPathComponent)
        } catch {
            throw fail("\(file): \(error.description)", code: ExitStatus.badInput)
        }
        let unresolved = await resolveLinks(of: &result)
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
        if result.channels.isEmpty { throw ExitCode(unresolved > 0 ? ExitStatus.partial : ExitStatus.badInput) }
        if unresolved > 0 { throw ExitCode(ExitStatus.partial) }
    }

    /// Resolves the handles, names and videos of `result` (``LinkResolution``) into channels
    /// after its own, a channel already listed counting as a duplicate; a link that cannot be
    /// resolved joins the rejected entries with why. Returns how many could not be resolved.
    private func resolveLinks(of result: inout SubscriptionImport) async -> Int {
        guard !result.links.isEmpty, let settings = try? store.settings() else { return 0 }
        let resolved = await LinkResolution(settings: settings, apiKey: settings.text(.youTubeAPIKey)).resolve(result.links.map(\.link))
        var unresolved = 0
        var known = Set(result.channels.map(\.id))
        let importedAt = result.channels.first?.addedAt ?? Date()
        for entry in result.links {
            switch resolved[entry.link] {
            case let .success(id)?:
                guard known.insert(id).inserted else {
                    result.rejected.append(RejectedEntry(location: entry.location, text: entry.text, reason: "duplicate: \(entry.link) is \(id)"))
                    continue
                }
                result.channels.append(Channel(id: id, title: entry.title, addedAt: importedAt, tags: entry.tags.isEmpty ? nil : entry.tags))
            case let .failure(error)?:
                unresolved += 1
                result.rejected.append(RejectedEntry(location: entry.location, text: entry.text, reason: "not resolved: \(error.description)"))
            case nil:
                break
            }
        }
        return unresolved
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
