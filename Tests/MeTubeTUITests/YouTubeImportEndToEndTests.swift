import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// `I` in the channels view of the real binary against a loopback stub of Google's OAuth and
/// Data API: the subscriptions are followed, pending for the mark sync, and shown.
@Suite("YouTube import in tmux")
struct YouTubeImportEndToEndTests {
    static func environment(_ directory: TemporaryDirectory, _ stub: YouTubeStub, client: Bool) -> [String: String] {
        ["XDG_CONFIG_HOME": directory.path("config"), "METUBE_YOUTUBE_OAUTH_URL": stub.url, "METUBE_YOUTUBE_API_URL": stub.url,
         "METUBE_YOUTUBE_CLIENT_ID": client ? "1234-abc.apps.googleusercontent.com" : "",
         "METUBE_YOUTUBE_CLIENT_SECRET": client ? "GOCSPX-secret" : ""]
    }

    /// Opens the channels view and presses `I`.
    static func importFromChannelsView(_ tmux: TmuxSession) async throws {
        try tmux.send("c")
        try await tmux.waitFor { $0.split(separator: "\n").first?.contains("channels") == true }
        try tmux.send("I")
    }

    @Test("without a client or a sign-in I says what to do; signed in, the subscriptions are followed and shown")
    func importFollowsTheSubscriptions() async throws {
        // Given a store following four channels, and YouTube listing 120 others over three pages
        let directory = TemporaryDirectory("metube-tui-youtube")
        defer { directory.remove() }
        let storeURL = try EndToEndTests.makeStore(SyntheticLibrary(channelCount: 4, videoCount: 40, markCount: 0), in: directory)
        let stub = await YouTubeStub.start(channels: (0..<120).map { (YouTubeStub.channelID($0), "Subscribed \($0)") })
        defer { stub.stop() }

        // When I is pressed without an OAuth client, Then the status line says what to set
        let unconfigured = try EndToEndTests.start(storeURL, in: directory, extraEnvironment: Self.environment(directory, stub, client: false))
        try await unconfigured.waitFor { $0.contains("hub: not configured") }
        try await Self.importFromChannelsView(unconfigured)
        try await unconfigured.waitFor { $0.contains("youtube: ") && $0.contains("client-id") }
        try unconfigured.send("q")
        #expect(try await unconfigured.waitForExit() == 0)
        unconfigured.close()

        // When I is pressed with a client but no sign-in, Then it says to sign in first
        let tmux = try EndToEndTests.start(storeURL, in: directory, extraEnvironment: Self.environment(directory, stub, client: true))
        defer { tmux.close() }
        try await tmux.waitFor { $0.contains("hub: not configured") }
        try await Self.importFromChannelsView(tmux)
        try await tmux.waitFor { $0.contains("youtube: not signed in; run metube youtube login first") }

        // When the saved sign-in was revoked, Then it says to sign in again and nothing is imported
        let tokenFile = directory.url.appendingPathComponent("config/metube/youtube-token")
        try FileManager.default.createDirectory(at: tokenFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"refreshToken\":\"revoked\"}".utf8).write(to: tokenFile)
        try tmux.send("I")
        try await tmux.waitFor { $0.contains("youtube: the sign-in was revoked or has expired; run metube youtube login again") }

        // When the user has signed in again and presses I
        try Data("{\"refreshToken\":\"refresh-1\"}".utf8).write(to: tokenFile)
        try tmux.send("I")

        // Then the status line reports the import and the channels view lists the new channels
        try await tmux.waitFor {
            $0.contains("youtube: 120 added, 0 already followed, 4 no longer subscribed") && $0.contains("124 channels") && $0.contains("Subscribed ")
        }
        #expect(stub.requests.filter { $0.path.hasSuffix("/subscriptions") }.count == 3)
        try tmux.send("q")
        #expect(try await tmux.waitForExit() == 0)

        // And the store follows them with their titles, pending for the mark sync; nothing was unfollowed
        let store = try Store.open(at: storeURL)
        #expect(store.library().channels.count == 124)
        #expect(store.library().channels[YouTubeStub.channelID(7)]?.title == "Subscribed 7")
        #expect(store.library().subscription(of: YouTubeStub.channelID(7), deviceID: store.syncSnapshot().deviceID)?.syncState == .pending)
    }
}
