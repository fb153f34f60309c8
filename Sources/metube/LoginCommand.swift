import ArgumentParser
import Foundation
import MeTubeAPI
import MeTubeSync

/// `metube login --server URL --token TOKEN`: checks the token against the mark-sync server and
/// stores the account (the token in a mode-0600 file; it is never printed).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a status server so marks sync between your devices.",
        discussion: "The token comes from `metube-server users add NAME`. Pass `--token -` to read it from standard input.")

    @Option(help: "The status server's URL, e.g. https://metube.example.org.")
    var server: String

    @Option(help: "Your user token, or - to read it from standard input.")
    var token: String

    @Option(help: "The container id.")
    var container = MarkSyncEndpoint.defaultContainer

    @Option(help: "development or production.")
    var environment = "production"

    @Option(help: "The container's API token.")
    var apiToken = MarkSyncEndpoint.defaultAPIToken

    @Flag(help: "Store the account without asking the server first.")
    var offline = false

    func run() async throws {
        let userToken = token == "-" ? (readLine(strippingNewline: true) ?? "") : token
        guard !userToken.isEmpty else { throw ValidationError("The token is empty.") }
        MeTubeLog.file.redact(userToken)
        guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("'\(server)' is not an http(s) URL.")
        }
        let account = MarkSyncAccount(endpoint: MarkSyncEndpoint(serverURL: server, container: container, environment: environment, apiToken: apiToken), userToken: userToken)
        if !offline {
            do {
                _ = try await MarkSyncClient(endpoint: account.endpoint, userToken: userToken, timeoutSeconds: 10, retryPolicy: .none).listZones(resultsLimit: 1)
            } catch {
                throw fail("login failed: \(error)", code: ExitStatus.failure)
            }
        }
        let directory = MarkSyncAccount.defaultDirectory()
        do {
            try account.save(to: directory)
        } catch {
            throw fail("cannot save the account in \(directory.path): \(error)", code: ExitStatus.ioError)
        }
        print("Signed in to \(account.endpoint.serverURL) (\(container), \(environment)); the token is stored in \(directory.appendingPathComponent("status-token").path).")
    }
}
