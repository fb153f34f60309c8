import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeYouTube

extension ImportCommand {
    /// `metube import --youtube`: follows the signed-in account's subscriptions. What was read
    /// before a failure is imported and the command exits 2; channels followed here but not
    /// subscribed on YouTube are reported (and unfollowed with `--prune`) only after a complete read.
    func importYouTube() async throws {
        let configuration = try YouTubeAccess.configuration(store)
        let saved = try YouTubeAccess.credentials()
        let opened = try store.openStore()
        let list = await YouTubeSubscriptionReader(oauth: YouTubeOAuthClient(configuration: configuration)).read(with: saved)
        if list.credentials != saved { try YouTubeAccess.save(list.credentials) }
        let outcome = try withStoreErrors { () throws(StoreError) in
            try YouTubeAccess.follow(list, in: opened, prune: prune, dryRun: dryRun)
        }
        let report = YouTubeImportOutput(
            added: outcome.added, alreadyPresent: list.channels.count - outcome.added, notOnYouTube: outcome.notOnYouTube,
            pruned: prune && !dryRun ? outcome.notOnYouTube.count : 0, rejected: list.rejected, pages: list.pages,
            error: list.failure?.description, dryRun: dryRun)
        if json {
            try printJSON(report)
        } else {
            print("YouTube: \(dryRun ? "would add" : "added") \(report.added), already present \(report.alreadyPresent), rejected \(report.rejected.count)")
            if !report.notOnYouTube.isEmpty {
                let verb = report.pruned > 0 ? "unfollowed" : "followed here but not subscribed on YouTube (--prune unfollows them)"
                print("\(report.notOnYouTube.count) \(verb): \(DisplayText.line(report.notOnYouTube.joined(separator: " "), limit: 2_000))")
            }
            for reason in list.rejected.prefix(20) { printError("rejected \(DisplayText.line(reason, limit: 300))") }
        }
        guard let failure = list.failure else { return }
        let code = YouTubeAccess.exitCode(failure)
        let kept = list.channels.isEmpty ? "" : "; the \(list.channels.count) channels read before it were kept"
        throw fail("\(failure.description)\(kept)", code: list.channels.isEmpty || code != ExitStatus.failure ? code : ExitStatus.partial)
    }
}

/// `metube import --youtube --json`.
struct YouTubeImportOutput: Encodable {
    var format = "youtube"
    var added: Int
    var alreadyPresent: Int
    var notOnYouTube: [String]
    var pruned: Int
    var rejected: [String]
    var pages: Int
    var error: String?
    var dryRun: Bool
}
