import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeSync
import MeTubeYouTube

/// The YouTube client, sign-in and exit codes the `youtube` commands and `import --youtube` share.
enum YouTubeAccess {
    /// Where the sign-in is kept.
    static var file: URL { MarkSyncAccount.defaultDirectory().appendingPathComponent(YouTubeCredentials.fileName) }

    /// The `[youtube]` settings in force; missing client settings end the command with 78.
    static func configuration(_ store: StoreAccess) throws -> YouTubeConfiguration {
        let settings = try store.settings()
        do {
            let configuration = try YouTubeConfiguration(settings: settings)
            MeTubeLog.file.redact(configuration.clientSecret)
            return configuration
        } catch {
            throw exit(error)
        }
    }

    /// The saved sign-in; none ends the command with 77, a damaged one with 65.
    static func credentials() throws -> YouTubeCredentials {
        let saved: YouTubeCredentials?
        do {
            saved = try YouTubeCredentials.load(from: MarkSyncAccount.defaultDirectory())
        } catch {
            throw fail("the YouTube sign-in in \(DisplayText.line(file.path)) is damaged; run `metube youtube login` again", code: ExitStatus.badInput)
        }
        guard let saved else { throw exit(.notSignedIn) }
        redact(saved)
        return saved
    }

    /// Saves `credentials` (mode 0600); a failure ends the command with 74.
    static func save(_ credentials: YouTubeCredentials) throws {
        redact(credentials)
        do {
            try credentials.save(to: MarkSyncAccount.defaultDirectory())
        } catch {
            throw fail("cannot save the YouTube sign-in in \(DisplayText.line(file.path)): \(error)", code: ExitStatus.ioError)
        }
    }

    /// Prints `error` and returns the exit it ends the command with.
    static func exit(_ error: YouTubeError) -> ExitCode {
        fail(error.description, code: exitCode(error))
    }

    /// 78 for a missing or refused client, 77 for a sign-in to redo, else 1.
    static func exitCode(_ error: YouTubeError) -> Int32 {
        switch error {
        case .noClient, .invalidClient: ExitStatus.notConfigured
        case _ where error.needsSignIn: ExitStatus.notAuthorized
        default: ExitStatus.failure
        }
    }

    /// Follows the channels of `list` not followed yet (pending, so they sync) and returns how many,
    /// with the channels followed here that a complete `list` does not hold, unfollowed when `prune`.
    static func follow(_ list: YouTubeSubscriptionList, in store: Store, prune: Bool, dryRun: Bool = false) throws(StoreError) -> (added: Int, notOnYouTube: [String]) {
        let onYouTube = Set(list.channels.map(\.id))
        return try store.transaction { transaction in
            let new = list.channels.filter { transaction.library.channels[$0.id] == nil }
            let gone = list.failure == nil ? transaction.library.channels.keys.filter { !onYouTube.contains($0) }.sorted() : []
            if !dryRun {
                for channel in new { transaction.follow(channel) }
                if prune { for id in gone { transaction.unfollow(id) } }
            }
            return (added: new.count, notOnYouTube: gone)
        }
    }

    /// Keeps the sign-in's tokens out of the log file.
    static func redact(_ credentials: YouTubeCredentials) {
        MeTubeLog.file.redact(credentials.refreshToken)
        if let access = credentials.accessToken { MeTubeLog.file.redact(access) }
    }
}
