import Foundation
import MeTubeCore
import Testing
import TestSupport

/// `[hub] backfill` and `[youtube] api-key` / `api-key-file` through the real binary: bad values
/// name the setting and the line, and the key is never shown.
@Suite struct CLIDirectBackfillTests {
    let metube = ProductBinary.url("metube")
    static let channel = "UCclibackfillAAAAAAAAAAA"
    static let key = "AIzaSyTestKey_0123456789-abcdefghijkl"

    /// Runs metube with the config `config` (written to config.toml in `directory`).
    private func run(_ arguments: [String], config: String, in directory: TemporaryDirectory, environment: [String: String] = [:]) async throws -> ProcessOutcome {
        try config.write(toFile: directory.path("config.toml"), atomically: true, encoding: .utf8)
        let isolated = ["XDG_CONFIG_HOME": directory.path("xdg-config"), "XDG_STATE_HOME": directory.path("state"), "METUBE_HUB_URL": "",
                        "METUBE_YOUTUBE_API_KEY": ""].merging(environment) { $1 }
        return try await runProcessOffPool(metube, arguments + ["--data-dir", directory.path("data"), "--config", directory.path("config.toml")], environment: isolated)
    }

    @Test(arguments: [
        ("[hub]\nbackfill = 501\n", "config.toml:2: [hub] backfill: must be a whole number from 0 to 500, not 501"),
        ("[hub]\nbackfill = -1\n", "config.toml:2: [hub] backfill: must be a whole number from 0 to 500, not -1"),
        ("[youtube]\napi-key = \"AIza key with spaces\"\n", "config.toml:2: [youtube] api-key: must be a YouTube Data API key (1 to 256 of A-Z, a-z, 0-9, - and _), not the value given (not shown)"),
        ("[youtube]\napi-key-file = \"relative/key\"\n", "config.toml:2: [youtube] api-key-file: must be an absolute path"),
        ("[youtube]\n\napi-key-file = \"/nonexistent/metube-key\"\n", "config.toml:3: [youtube] api-key-file: cannot read /nonexistent/metube-key"),
        ("[youtube]\napi-key = \"AIzaOne\"\napi-key-file = \"/nonexistent/metube-key\"\n", "config.toml:3: [youtube] api-key-file: set api-key or api-key-file, not both"),
    ])
    func aBadBackfillOrKeyNamesTheSettingAndTheLine(config: String, message: String) async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for command in [["config", "check"], ["sync", "--direct"]] {
            let outcome = try await run(command, config: config, in: directory)
            #expect(outcome.status == 65, "\(command): \(outcome.stderr)")
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
            #expect(!outcome.stderr.contains("spaces"))
        }
    }

    @Test func aKeyFileThatHoldsNoKeyIsRefusedAndAGoodOneIsNeverShown() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let keyFile = directory.path("youtube-api-key")
        try "not a key at all\n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        let config = "[youtube]\napi-key-file = \"\(keyFile)\"\n"
        let bad = try await run(["config", "check"], config: config, in: directory)
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("config.toml:2: [youtube] api-key-file: \(keyFile) must hold a YouTube Data API key"), "\(bad.stderr)")

        try "\n  \(Self.key)  \n".write(toFile: keyFile, atomically: true, encoding: .utf8)
        let show = try await run(["config", "show"], config: config, in: directory)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("# api-key is set (not shown)  # file"), "\(show.stdout)")
        #expect(show.stdout.contains("backfill = 50  # default"))
        #expect(!show.stdout.contains(Self.key))
        let environment = try await run(["config", "show"], config: "", in: directory, environment: ["METUBE_YOUTUBE_API_KEY": Self.key])
        #expect(environment.stdout.contains("# api-key is set (not shown)  # environment"))
        #expect(!environment.stdout.contains(Self.key))
    }
}
