import Foundation
import Hummingbird
import MeTubeCore
import MeTubeFeeds
import TestSupport
import Testing

/// `metube channels add` and `metube import` in hub mode: the real hub resolves links once for
/// the household (through the Data API stub), and a device signed in to the same server follows
/// the channel after its sync; a hub without the endpoint leaves it to this machine.
@Suite struct CLIHubLinkResolutionTests {
    let metube = ProductBinary.url("metube")
    private let veritasium = "UCHnyfMqiRRG1u-2MsSQLbXA"
    private let rick = "UCuAXFkgsw1L7xaCfnd5JJOw"
    private let luke = "UC2eYFnH61tmytImy1mTYvhA"

    /// One device: its store, config and XDG directories under `directory/name`.
    private struct Device {
        let directory: URL
        let options: [String]
        let environment: [String: String]

        init(_ name: String, in parent: TemporaryDirectory, hubURL: String, extraConfig: String = "") throws {
            directory = parent.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let config = directory.appendingPathComponent("config.toml")
            try "[hub]\nurl = \"\(hubURL)\"\n\(extraConfig)".write(to: config, atomically: true, encoding: .utf8)
            options = ["--data-dir", directory.appendingPathComponent("data").path, "--config", config.path]
            environment = ["XDG_CONFIG_HOME": directory.appendingPathComponent("xdg").path, "XDG_STATE_HOME": directory.appendingPathComponent("state").path]
        }
    }

    private func run(_ device: Device, _ arguments: [String]) async throws -> ProcessOutcome {
        try await runProcessOffPool(metube, arguments + device.options, environment: device.environment)
    }

    /// `metube login` on `device` (its mark-sync account lives in its XDG config directory).
    private func login(_ device: Device, server: String, token: String, offline: Bool = false) async throws -> ProcessOutcome {
        try await runProcessOffPool(metube, ["login", "--server", server, "--token", token, "--environment", "development"] + (offline ? ["--offline"] : []),
                                    environment: device.environment)
    }

    @Test(.timeLimit(.minutes(2))) func aHandleAddedOnOneDeviceIsFollowedOnAnotherAfterSync() async throws {
        // Given a hub with a Data API key (the stub knows a handle and a video) and a mark-sync user signed in on two devices
        let directory = TemporaryDirectory("metube-hub-resolve")
        defer { directory.remove() }
        let stub = await YouTubeStub.start(override: YouTubeStub.resolving(handles: ["veritasium": veritasium], videos: ["dQw4w9WgXcQ": rick]))
        defer { stub.stop() }
        let database = directory.path("hub.sqlite")
        let server = try await ServerProcess.launch(["serve", "--port", "0", "--poll-interval", "0", "--register-limit", "0", "--database", database,
            "--youtube-api-key", "test-key", "--youtube-api-url", stub.url,
        ], within: .seconds(30))
        defer { server.stop() }
        let added = try runProcess(ProductBinary.url("metube-server"), ["users", "add", "alice", "--database", database])
        let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let phone = try Device("phone", in: directory, hubURL: server.baseURL)
        let laptop = try Device("laptop", in: directory, hubURL: server.baseURL)
        for device in [phone, laptop] {
            let login = try await login(device, server: server.baseURL, token: token)
            #expect(login.status == 0, "\(login.stderr)")
        }

        // When the phone adds the handle as a shared link, and syncs
        let add = try await run(phone, ["channels", "add", "https://m.youtube.com/@Veritasium?si=abc"])
        #expect(add.status == 0, "\(add.stdout) \(add.stderr)")
        #expect(add.stdout.contains("added 1 channel(s)"), "\(add.stdout)")
        #expect(!add.stderr.contains("note:"), "\(add.stderr)")
        #expect(try await run(phone, ["sync"]).status == 0)

        // Then the laptop follows the channel after its sync
        let sync = try await run(laptop, ["sync"])
        #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")
        #expect(try await run(laptop, ["channels", "list"]).stdout.contains(veritasium))

        // And the laptop importing the same handle, a video link, an id and an unknown handle costs YouTube only the new lookups
        let list = "@veritasium\nhttps://youtu.be/dQw4w9WgXcQ?si=x\n\(luke)\n@nobody_here\n"
        try list.write(toFile: directory.path("list.txt"), atomically: true, encoding: .utf8)
        let imported = try await run(laptop, ["import", directory.path("list.txt")])
        #expect(imported.status == 2, "\(imported.stdout) \(imported.stderr)")
        #expect(imported.stdout.contains("added 2"), "\(imported.stdout)")
        #expect(imported.stderr.contains("line 4: not resolved: hub: @nobody_here does not exist on YouTube"), "\(imported.stderr)")
        #expect(imported.stderr.contains("resolving links through the hub: 3/3"), "\(imported.stderr)")
        #expect(stub.requests.filter { $0.path == "/channels" || $0.path == "/videos" }.count == 3)
    }

    @Test(.timeLimit(.minutes(2))) func aHubWithoutTheEndpointOrAnAccountLeavesLinksToThisMachineWithANote() async throws {
        // Given a hub that knows no resolve route (an older one) and yt-dlp on this machine knowing a handle
        let directory = TemporaryDirectory("metube-hub-resolve-old")
        let standIn = try YTDLPStandIn()
        defer { directory.remove(); standIn.remove() }
        try standIn.setLinks([ChannelLink.handle("veritasium").url: veritasium])
        let (hub, hubURL) = await BackgroundService.serve(Router(), label: "older-hub")
        defer { hub.stop() }
        let device = try Device("device", in: directory, hubURL: hubURL, extraConfig: "[download]\ncommand = \"\(standIn.executable.path)\"\n")

        // When a handle is added without a mark-sync account
        let unsigned = try await run(device, ["channels", "add", "@veritasium"])
        // Then this machine resolves it, and says why
        #expect(unsigned.status == 0, "\(unsigned.stderr)")
        #expect(unsigned.stderr.contains("note: the hub resolves links for signed-in users (metube login); resolving them here"), "\(unsigned.stderr)")

        // And signed in to a hub without the endpoint, the same: a one-line note, resolved here
        let login = try await login(device, server: hubURL, token: "some-token", offline: true)
        #expect(login.status == 0, "\(login.stderr)")
        let signed = try await run(device, ["channels", "add", "https://www.youtube.com/@Veritasium", luke])
        #expect(signed.status == 0, "\(signed.stderr)")
        #expect(signed.stdout.contains("added 1 channel(s), 1 already followed"), "\(signed.stdout)")
        #expect(signed.stderr.contains("note: the hub does not resolve links (an older metube-server); resolving them here"), "\(signed.stderr)")
        #expect(standIn.calls().count == 2)
    }
}
