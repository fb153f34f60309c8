import Foundation
import MeTubeCore
import MeTubeStore
import Testing
import TestSupport

/// What reaches the user's terminal from outside, ids from the command line, and the log file.
@Suite struct CLIDisplayTests {
    let metube = ProductBinary.url("metube")

    /// A hub-supplied title that would retitle the terminal, return the cursor, clear the screen
    /// and reverse the text direction.
    static let hostileTitle = "Cats\u{1B}]0;pwned\u{07}\r\u{1B}[2J\u{9B}31m\u{202E}gnp.exe\u{0}end"

    private func seeded(_ directory: TemporaryDirectory) throws {
        let store = try Store.open(at: directory.url)
        let channel = Channel(id: "UC" + String(repeating: "a", count: 22), title: "Chan\u{1B}[31mnel\n2")
        let videos = [Video(id: "dQw4w9WgXcQ", channelID: channel.id, title: Self.hostileTitle, published: Date()),
                      Video(id: "-hAAAAAAAAA", channelID: channel.id, title: "dash", published: Date())]
        try store.apply(StoreChange(videos: videos, channels: [channel]))
    }

    private func environment(_ directory: TemporaryDirectory) -> [String: String] {
        ["XDG_STATE_HOME": directory.path("state"), "XDG_CONFIG_HOME": directory.path("config"), "METUBE_CONFIG": directory.path("none.toml")]
    }

    @Test func listAndChannelsListPrintNoControlCharactersFromTitles() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try seeded(directory)
        for command in [["list", "--filter", "all"], ["channels", "list"]] {
            let outcome = try runProcess(metube, command + ["--data-dir", directory.url.path], environment: environment(directory))
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let unsafe = outcome.stdout.unicodeScalars.filter { $0 != "\n" && DisplayText.isControl($0) }
            #expect(unsafe.isEmpty, "\(command): \(unsafe.map { String($0.value, radix: 16) })")
            #expect(outcome.stdout.contains(command[0] == "list" ? "Cats]0;pwned [2J31mgnp.exeend" : "Chan[31mnel 2"), "\(outcome.stdout)")
        }
        // JSON output keeps the exact data, escaped
        let json = try runProcess(metube, ["list", "--filter", "all", "--json", "--data-dir", directory.url.path], environment: environment(directory))
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let titles = (object?["videos"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        #expect(titles?.contains(Self.hostileTitle) == true)
    }

    @Test func videoIDsStartingWithADashAreMarkedNotTakenForOptions() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try seeded(directory)
        let dataDir = ["--data-dir", directory.url.path]
        let outcome = try runProcess(metube, ["mark", "-hAAAAAAAAA", "watched"] + dataDir, environment: environment(directory))
        #expect(outcome.status == 0, "\(outcome.stdout) \(outcome.stderr)")
        #expect(outcome.stdout == "-hAAAAAAAAA watched (pending)\n")
        #expect(try Store.open(at: directory.url).library().marks["-hAAAAAAAAA"]?.status == .watched)
        // And the explicit `--` works as documented
        let explicit = try runProcess(metube, ["mark"] + dataDir + ["--", "-hAAAAAAAAA", "skipped"], environment: environment(directory))
        #expect(explicit.status == 0, "\(explicit.stderr)")
        #expect(try Store.open(at: directory.url).library().marks["-hAAAAAAAAA"]?.status == .skipped)
    }

    @Test func badIDsAreRejectedAndNeverEchoedRaw() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try seeded(directory)
        let dataDir = ["--data-dir", directory.url.path]
        let huge = String(repeating: "A", count: 5_000)
        let input = "dQw4w9WgXcQ\u{1B}]0;x\u{07} watched\n"
        let stdin = try runProcess(metube, ["mark", "--stdin"] + dataDir, environment: environment(directory), input: input)
        #expect(stdin.status == 65)
        #expect(!stdin.stderr.unicodeScalars.contains { $0 != "\n" && DisplayText.isControl($0) }, "\(stdin.stderr)")
        let long = try runProcess(metube, ["mark", huge, "watched"] + dataDir, environment: environment(directory))
        #expect(long.status == 65)
        #expect(long.stderr.count < 400)
        let channel = try runProcess(metube, ["list", "--channel", "UC\u{1B}[2J"] + dataDir, environment: environment(directory))
        #expect(channel.status == 64)
        #expect(!channel.stderr.contains("\u{1B}"))
        let remove = try runProcess(metube, ["channels", "remove", "UC\nnope"] + dataDir, environment: environment(directory))
        #expect(remove.status == 65)
    }

    @Test func theLogFileIsWrittenAndNeverHoldsTheToken() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let token = "s3cr3t-user-token-\(UUID().uuidString)"
        // When a login fails against a port nothing listens on
        let outcome = try runProcess(metube, ["login", "--server", "http://127.0.0.1:9/?ckWebAuthToken=\(token)", "--token", token],
                                     environment: environment(directory))
        #expect(outcome.status == 1)
        // Then the log file holds the command and its failure, and the token nowhere
        let log = try String(contentsOfFile: directory.path("state/metube/metube.log"), encoding: .utf8)
        #expect(log.contains("start metube login"))
        #expect(log.contains("login failed"))
        #expect(log.contains("exit 1"))
        #expect(!log.contains(token))
        #expect(!outcome.stderr.contains(token), "\(outcome.stderr)")
    }
}
