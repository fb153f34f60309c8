import Foundation
import Hummingbird
import MeTubeStore
import Testing
import TestSupport

/// `metube config`, and how every command treats a bad config file or a damaged account.
@Suite struct CLISettingsTests {
    let metube = ProductBinary.url("metube")

    /// Runs `metube` with a config file of `config` and its own config, state and data folders.
    private func run(_ arguments: [String], config: String?, in directory: TemporaryDirectory, environment: [String: String] = [:]) throws -> ProcessOutcome {
        if let config { try config.write(toFile: directory.path("config.toml"), atomically: true, encoding: .utf8) }
        let isolated = ["METUBE_CONFIG": directory.path("config.toml"), "XDG_CONFIG_HOME": directory.path("xdg-config"),
                        "XDG_STATE_HOME": directory.path("state"), "METUBE_DATA_DIR": directory.path("data"), "METUBE_HUB_URL": ""]
        return try runProcess(metube, arguments, environment: isolated.merging(environment) { $1 })
    }

    @Test(arguments: ["[sync]\nhub_interval = 1e300\n", "[hub]\nconcurrency = 1e300\n", "[sync]\nstatus-interval = -5\n", "[hub]\npage-size = 100000\n"])
    func hugeOrNegativeNumbersExit65WithAClearMessageInsteadOfCrashing(config: String) throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for command in [["sync", "--direct"], ["config", "check"]] {
            let outcome = try run(command, config: config, in: directory)
            #expect(outcome.status == 65, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.contains("config.toml:2"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("must be"), "\(outcome.stderr)")
        }
    }

    @Test func unknownSectionsKeysAndWrongTypesNameTheFileLineAndNearestKey() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cases: [(String, String)] = [
            ("[hub]\nurl = \"http://x\"\npage_sise = 50\n", "config.toml:3: [hub] page_sise: unknown setting; did you mean page-size?"),
            ("# mine\n[hubb]\nurl = \"http://x\"\n", "config.toml:2: [hubb]: unknown section; did you mean hub?"),
            ("[hub]\nfollow-hub-channels = \"yes\"\n", "config.toml:2: [hub] follow-hub-channels: must be true or false, not \"yes\""),
        ]
        for (config, message) in cases {
            for command in [["list"], ["config", "check"]] {
                let outcome = try run(command, config: config, in: directory)
                #expect(outcome.status == 65, "\(command) \(config)")
                #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
            }
        }
    }

    @Test func oldSpellingsStillWorkWithADeprecationNote() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let outcome = try run(["config", "show"], config: "[hub]\npage_size = 50\n", in: directory)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("config.toml:2: [hub] page_size is deprecated; write page-size"))
        #expect(outcome.stdout.contains("page-size = 50  # file"))
    }

    @Test func configShowSaysWhereEachValueCameFrom() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let config = "[hub]\nurl = 'http://hub.example'\n[keys]\nquit = [\"Q\", \"C-c\"]\n"
        let outcome = try run(["config", "show", "--data-dir", directory.path("elsewhere")], config: config, in: directory,
                              environment: ["METUBE_LOCK_TIMEOUT": "2.5"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("url = \"http://hub.example\"  # file"))
        #expect(lines.contains("page-size = 100  # default"))
        #expect(lines.contains("lock-timeout = 2.5  # environment"))
        #expect(lines.contains("quit = [\"Q\", \"C-c\"]  # file"))
        #expect(lines.contains("# store: \(directory.path("elsewhere")) (flag --data-dir)"))
    }

    @Test func configCheckValidatesKeysWithoutRunningAnything() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let good = try run(["config", "check"], config: "[tui]\nopen = \"mpv {url}\"\n", in: directory)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.hasSuffix(": ok\n"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("data")))
        let twice = try run(["config", "check"], config: "[keys]\nquit = \"x\"\nsearch = \"x\"\n", in: directory)
        #expect(twice.status == 65)
        #expect(twice.stderr.contains("config.toml:3: [keys] search: x is bound to quit too"), "\(twice.stderr)")
        // And the TUI refuses the same file before it touches the terminal
        let tui = try run(["tui"], config: "[keys]\nquit = \"x\"\nsearch = \"x\"\n", in: directory)
        #expect(tui.status == 65)
        #expect(tui.stderr.contains("x is bound to quit too"))
    }

    @Test func aDamagedAccountIsReportedNotIgnored() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let accountDirectory = directory.url.appendingPathComponent("xdg-config/metube")
        try FileManager.default.createDirectory(at: accountDirectory, withIntermediateDirectories: true)
        // Given a status.json that is not an account
        try Data("{\"serverURL\": ".utf8).write(to: accountDirectory.appendingPathComponent("status.json"))
        try Data("secret-token\n".utf8).write(to: accountDirectory.appendingPathComponent("status-token"))
        // When syncing, Then the damage is reported with exit 65 instead of syncing without marks
        let outcome = try run(["sync", "--direct"], config: nil, in: directory)
        #expect(outcome.status == 65, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stderr.contains("status account"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("damaged"))
        #expect(try run(["config", "check"], config: nil, in: directory).status == 65)
    }

    @Test func aDirectSyncWhereEveryFeedFailsExitsFailedNotPartial() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let data = directory.url.appendingPathComponent("data")
        try Store.open(at: data).apply(StoreChange(channels: smallLibrary(videos: 4, channels: 2).channels()))
        // Given feeds at an address nobody listens on
        let config = "[hub]\nsource = \"youtube\"\nfeed-url-template = \"http://127.0.0.1:1/{channelId}\"\n"
        // When syncing, Then the run counts as failed (1), not partial (2)
        let outcome = try run(["sync"], config: config, in: directory)
        #expect(outcome.status == 1, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stdout.contains("youtube sync: 0 new videos") && outcome.stdout.contains("2 of 2 channels failing"), "\(outcome.stdout) \(outcome.stderr)")
    }

    @Test func aMarkSyncErrorIsLoggedAndNeverShowsTheTokens() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given a mark-sync server whose error reasons quote the request, API token included
        let router = Router()
        let echo: @Sendable (Request, BasicRequestContext) -> Response = { request, _ in
            let body = #"{"serverErrorCode":"BAD_REQUEST","reason":"cannot serve \#(request.uri.description)"}"#
            return Response(status: .badRequest, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        router.post("**", use: echo)
        router.get("**", use: echo)
        let (server, url) = await BackgroundService.serve(router, label: "echoing-status")
        defer { server.stop() }
        let account = directory.url.appendingPathComponent("xdg-config/metube")
        try FileManager.default.createDirectory(at: account, withIntermediateDirectories: true)
        let endpoint = #"{"serverURL":"\#(url)","container":"iCloud.com.metube.app","environment":"production","apiToken":"api-s3cret"}"#
        try Data(endpoint.utf8).write(to: account.appendingPathComponent("status.json"))
        try Data("user-s3cret\n".utf8).write(to: account.appendingPathComponent("status-token"))

        // When syncing marks
        let outcome = try run(["sync"], config: nil, in: directory)

        // Then the run fails, its error is in the log file, and no output names either token
        #expect(outcome.status == 1, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stdout.contains("status error:") && outcome.stdout.contains("ckAPIToken=<redacted>"), "\(outcome.stdout)")
        let log = try String(contentsOfFile: directory.path("state/metube/metube.log"), encoding: .utf8)
        #expect(log.contains("status sync error:") && log.contains("ckAPIToken=<redacted>"), "\(log)")
        for text in [outcome.stdout, outcome.stderr, log] {
            #expect(!text.contains("api-s3cret") && !text.contains("user-s3cret"))
        }
    }
}
