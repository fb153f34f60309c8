import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeSync
import MeTubeYouTube

/// `metube youtube login|logout`: signs in with the user's YouTube account (Google's OAuth 2.0
/// flow for TV and limited-input devices) so that `metube import --youtube` can read the
/// subscriptions.
struct YouTubeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "youtube",
        abstract: "Sign in with YouTube to import your subscriptions.",
        discussion: """
            Needs your own OAuth client in [youtube] client-id and client-secret (see the README). The \
            sign-in asks only to read your YouTube account (youtube.readonly); its refresh token is kept \
            in youtube-token (mode 0600) beside the status account and never printed.
            """,
        subcommands: [Login.self, Logout.self]
    )

    /// `metube youtube login`.
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign in: shows a code to enter at Google's device page, then waits for you.",
            discussion: "Exits 77 when the sign-in is declined or the code expires, 78 when no OAuth client is configured or Google refuses it.")

        @OptionGroup var store: StoreAccess

        func run() async throws {
            let configuration = try YouTubeAccess.configuration(store)
            let client = YouTubeOAuthClient(configuration: configuration)
            let code: YouTubeDeviceCode
            do {
                code = try await client.requestDeviceCode()
            } catch {
                throw YouTubeAccess.exit(error)
            }
            MeTubeLog.file.redact(code.deviceCode)
            print(Self.instructions(code))
            let credentials: YouTubeCredentials
            do {
                credentials = try await YouTubeDeviceLogin(client: client).credentials(for: code)
            } catch {
                throw YouTubeAccess.exit(error)
            }
            try YouTubeAccess.save(credentials)
            print("Signed in with YouTube; the sign-in is kept in \(DisplayText.line(YouTubeAccess.file.path)). Run `metube import --youtube` to follow your subscriptions.")
        }

        /// The page and the code, the code boxed so it stands out.
        static func instructions(_ code: YouTubeDeviceCode) -> String {
            let spaced = DisplayText.line(code.userCode, limit: 64)
            let rule = String(repeating: "─", count: spaced.count + 6)
            let minutes = Int(code.expiresIn.components.seconds / 60)
            return """

                  To sign in with YouTube, open  \(DisplayText.line(code.verificationURL))
                  and enter this code:

                      ┌\(rule)┐
                      │   \(spaced)   │
                      └\(rule)┘

                  Waiting for you (the code works for \(minutes > 0 ? "\(minutes) min" : "under a minute"); Ctrl-C stops)…

                """
        }
    }

    /// `metube youtube logout`.
    struct Logout: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget the YouTube sign-in kept on this device.")

        func run() throws {
            do {
                let removed = try YouTubeCredentials.remove(from: MarkSyncAccount.defaultDirectory())
                print(removed ? "Signed out of YouTube on this device (revoke metube's access at https://myaccount.google.com/permissions)." : "Not signed in with YouTube.")
            } catch {
                throw fail("cannot remove \(DisplayText.line(YouTubeAccess.file.path)): \(error)", code: ExitStatus.ioError)
            }
        }
    }
}
