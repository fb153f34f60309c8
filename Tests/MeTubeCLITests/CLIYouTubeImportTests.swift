import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `metube youtube login` and `metube import --youtube`, the real binary against a loopback stub
/// of Google's OAuth device flow and the Data API.
@Suite struct CLIYouTubeImportTests {
    let metube = ProductBinary.url("metube")

    static func channels(_ range: Range<Int>) -> [(id: String, title: String)] {
        range.map { (YouTubeStub.channelID($0), "Channel \($0)") }
    }

    /// A config directory, a store, and the environment pointing metube at `stub`.
    struct Machine {
        let directory = TemporaryDirectory()
        var config: URL { directory.url.appendingPathComponent("config") }
        var tokenFile: URL { config.appendingPathComponent("metube/youtube-token") }
        var data: [String] { ["--data-dir", directory.url.appendingPathComponent("store").path] }

        func environment(_ stub: YouTubeStub, client: Bool = true) -> [String: String] {
            var environment = ["XDG_CONFIG_HOME": config.path, "METUBE_YOUTUBE_OAUTH_URL": stub.url, "METUBE_YOUTUBE_API_URL": stub.url,
                               "METUBE_YOUTUBE_CLIENT_ID": "", "METUBE_YOUTUBE_CLIENT_SECRET": ""]
            if client {
                environment["METUBE_YOUTUBE_CLIENT_ID"] = "1234-abc.apps.googleusercontent.com"
                environment["METUBE_YOUTUBE_CLIENT_SECRET"] = "GOCSPX-secret"
            }
            return environment
        }
    }

    func followedCount(_ machine: Machine) async throws -> Int? {
        let list = try await runProcessOffPool(metube, ["channels", "list", "--json"] + machine.data)
        return (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["count"] as? Int
    }

    @Test func signInImportThenReportAndPruneWhatYouTubeNoLongerHas() async throws {
        let machine = Machine()
        defer { machine.directory.remove() }
        let pending = YouTubeStub.Reply.json(YouTubeStub.oauthError("authorization_pending"), status: 428)
        let granted = YouTubeStub.Reply.json(YouTubeStub.token(access: "access-0", refresh: "1//refresh-secret"))
        let stub = await YouTubeStub.start(channels: Self.channels(0..<120), polls: [pending, granted]) { request, _ in
            request.path == "/device/code" ? .json(YouTubeStub.deviceCode(interval: "1")) : nil
        }
        defer { stub.stop() }

        // Without an OAuth client, sign-in says what to set and exits 78
        let unconfigured = try await runProcessOffPool(metube, ["youtube", "login"] + machine.data, environment: machine.environment(stub, client: false))
        #expect(unconfigured.status == 78 && unconfigured.stderr.contains("client-id"), "\(unconfigured.stderr)")

        // When the user signs in
        let login = try await runProcessOffPool(metube, ["youtube", "login"] + machine.data, environment: machine.environment(stub))

        // Then the page and the code are shown, the sign-in is kept 0600 and never printed
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("https://www.google.com/device") && login.stdout.contains("GQVQ-JKEC"))
        #expect(!(login.stdout + login.stderr).contains("refresh-secret"))
        let mode = try FileManager.default.attributesOfItem(atPath: machine.tokenFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // When the subscriptions are imported
        let imported = try await runProcessOffPool(metube, ["import", "--youtube"] + machine.data, environment: machine.environment(stub))

        // Then all 120 are followed with their titles, pending for the mark-sync service
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("YouTube: added 120, already present 0"))
        let store = try Store.open(at: machine.directory.url.appendingPathComponent("store"), options: StoreOptions(lockTimeout: .seconds(5)))
        #expect(store.library().channels.count == 120)
        #expect(store.library().channels[YouTubeStub.channelID(7)]?.title == "Channel 7")
        #expect(store.library().subscription(of: YouTubeStub.channelID(7), deviceID: store.syncSnapshot().deviceID)?.syncState == .pending)

        // When YouTube later lists 100 of them: they are reported, then unfollowed with --prune
        let fewer = await YouTubeStub.start(channels: Self.channels(0..<100))
        defer { fewer.stop() }
        let report = try await runProcessOffPool(metube, ["import", "--youtube", "--json"] + machine.data, environment: machine.environment(fewer))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any], "\(report.stderr)")
        #expect(json["alreadyPresent"] as? Int == 100)
        #expect((json["notOnYouTube"] as? [String])?.count == 20)
        #expect(json["pruned"] as? Int == 0)
        let pruned = try await runProcessOffPool(metube, ["import", "--youtube", "--prune"] + machine.data, environment: machine.environment(fewer))
        #expect(pruned.status == 0 && pruned.stdout.contains("20 unfollowed"), "\(pruned.stdout) \(pruned.stderr)")
        #expect(try await followedCount(machine) == 100)
    }

    @Test func aSpentQuotaKeepsThePagesReadAndARevokedSignInSaysSignInAgain() async throws {
        let machine = Machine()
        defer { machine.directory.remove() }
        try FileManager.default.createDirectory(at: machine.tokenFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"refreshToken\":\"refresh-1\"}".utf8).write(to: machine.tokenFile)
        let stub = await YouTubeStub.start(channels: Self.channels(0..<150)) { request, pagesBefore in
            request.path == "/subscriptions" && pagesBefore == 1
                ? .json(YouTubeStub.apiError(status: 403, reason: "quotaExceeded", message: "quota"), status: 403) : nil
        }
        defer { stub.stop() }

        // A quota spent on the second page: the first page's 50 are kept, exit 2
        let partial = try await runProcessOffPool(metube, ["import", "--youtube"] + machine.data, environment: machine.environment(stub))
        #expect(partial.status == 2, "\(partial.stderr)")
        #expect(partial.stdout.contains("added 50") && partial.stderr.contains("quotaExceeded"))

        // A revoked refresh token: exit 77, saying to sign in again, nothing lost
        try Data("{\"refreshToken\":\"revoked\"}".utf8).write(to: machine.tokenFile)
        let revoked = try await runProcessOffPool(metube, ["import", "--youtube"] + machine.data, environment: machine.environment(stub))
        #expect(revoked.status == 77 && revoked.stderr.contains("metube youtube login"), "\(revoked.stderr)")
        #expect(try await followedCount(machine) == 50)

        // Not signed in at all: exit 77 too
        try FileManager.default.removeItem(at: machine.tokenFile)
        let signedOut = try await runProcessOffPool(metube, ["import", "--youtube"] + machine.data, environment: machine.environment(stub))
        #expect(signedOut.status == 77 && signedOut.stderr.contains("not signed in"))
    }
}
