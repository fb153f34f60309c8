import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync
import MeTubeTUI
import MeTubeYouTube

extension TUICommand {
    /// `I` in the channels view: the same import as `metube import --youtube` (without `--prune`),
    /// run off the key path, its failures reported to the TUI rather than printed.
    static func youTubeImporter(settings: Settings, store: @escaping @Sendable () async throws -> Store) -> TUIOptions.YouTubeImporter {
        { report in
            Task.detached {
                report(await importYouTube(settings: settings, store: store) { pages, channels in
                    report(.reading(pages: pages, channels: channels))
                })
            }
        }
    }

    private static func importYouTube(
        settings: Settings, store: @Sendable () async throws -> Store, onPage: (Int, Int) -> Void
    ) async -> YouTubeImportProgress {
        let configuration: YouTubeConfiguration
        do {
            configuration = try YouTubeConfiguration(settings: settings)
        } catch {
            return .notConfigured(error.description)
        }
        MeTubeLog.file.redact(configuration.clientSecret)
        let saved: YouTubeCredentials?
        do {
            saved = try YouTubeCredentials.load(from: MarkSyncAccount.defaultDirectory())
        } catch {
            return .failed("the YouTube sign-in in \(DisplayText.line(YouTubeAccess.file.path)) is damaged; run metube youtube login again")
        }
        guard let saved else { return .notSignedIn }
        YouTubeAccess.redact(saved)
        let opened: Store
        do {
            opened = try await store()
        } catch {
            return .failed("cannot open the store: \(error)")
        }
        let list = await YouTubeSubscriptionReader(oauth: YouTubeOAuthClient(configuration: configuration)).read(with: saved, onPage: onPage)
        var failure = list.failure?.description
        if list.credentials != saved {
            YouTubeAccess.redact(list.credentials)
            do {
                try list.credentials.save(to: MarkSyncAccount.defaultDirectory())
            } catch {
                failure = [failure, "cannot save the refreshed sign-in: \(error)"].compactMap { $0 }.joined(separator: "; ")
            }
        }
        if list.channels.isEmpty, list.failure?.needsSignIn == true { return .signInRejected }
        if list.channels.isEmpty, let failure { return .failed(failure) }
        do {
            let outcome = try YouTubeAccess.follow(list, in: opened, prune: false)
            return .finished(YouTubeImportReport(
                added: outcome.added, alreadyFollowed: list.channels.count - outcome.added, notSubscribed: outcome.notOnYouTube.count,
                rejected: list.rejected.count, failure: failure))
        } catch {
            return .failed("cannot save the channels: \(error)")
        }
    }
}
