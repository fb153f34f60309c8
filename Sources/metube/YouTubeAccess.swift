import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeSync

/// The YouTube client, sign-in and exit codes the `youtube` commands and `import --youtube` share.
enum YouTubeAccess {
    /// Where the sign-in is kept.
    static var file: URL { StatusAccount.defaultDirectory().appendingPathComponent(YouTubeCredentials.fileName) }

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
            saved = try YouTubeCredentials.load(from: StatusAccount.defaultDirectory())
        } catch {
            throw fail("the YouTube sign-in in \(DisplayText.line(file.path)) is damaged; run `metube youtube login` again", code: ExitStatus.badInput)
        }
        guard let saved else { throw exit(.youTube(.notSignedIn)) }
        redact(saved)
        return saved
    }

    /// Saves `credentials` (mode 0600); a failure ends the command with 74.
    static func save(_ credentials: YouTubeCredentials) throws {
        redact(credentials)
        do {
            try credentials.save(to: StatusAccount.defaultDirectory())
        } catch {
            throw fail("cannot save the YouTube sign-in in \(DisplayText.line(file.path)): \(error)", code: ExitStatus.ioError)
        }
    }

    /// Prints `error` and returns the exit it ends the command with.
    static func exit(_ error: SyncError) -> ExitCode {
        fail(error.description, code: exitCode(error))
    }

    /// 78 for a missing or refused client, 77 for a sign-in to redo, else 1.
    static func exitCode(_ error: SyncError) -> Int32 {
        guard case .youTube(let failure) = error else { return ExitStatus.failure }
        switch failure {
        case .noClient, .invalidClient: return ExitStatus.notConfigured
        case _ where failure.needsSignIn: return ExitStatus.notAuthorized
        default: return ExitStatus.failure
        }
    }

    private static func redact(_ credentials: YouTubeCredentials) {
        MeTubeLog.file.redact(credentials.refreshToken)
        if let access = credentials.accessToken { MeTubeLog.file.redact(access) }
    }
}
