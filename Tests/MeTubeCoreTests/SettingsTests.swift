import Foundation
import Testing
@testable import MeTubeCore

/// The one settings model: full TOML, one spelling, strict keys, ranges, origins.
@Suite struct SettingsTests {
    @Test func theDefaultsAreInForceWithoutAFile() {
        let settings = Settings()
        #expect(settings.whole(.pageSize) == 100)
        #expect(settings.duration(.hubInterval) == .seconds(3600))
        #expect(settings.text(.hubURL) == nil)
        #expect(SettingName.allCases.allSatisfy { settings.origins[$0] == .default })
    }

    @Test func everyTableKeyIsKebabCaseAndItsDefaultIsInRange() {
        for name in SettingName.allCases {
            #expect(!name.key.contains("_"), "\(name.rawValue)")
            if let value = name.defaultValue { #expect(value.text.isEmpty == false) }
        }
    }

    @Test func fullTOMLIsRead() throws {
        let text = """
        [hub]
        url = 'http://hub.example:8787'   # a literal string
        page-size = 250
        feed-url-template = \"\"\"http://feeds/{channelId}\"\"\"
        [sync]
        hub-interval = 90.5
        status-interval = 0
        [keys]
        quit = ["q", "C-c"]
        """
        let settings = try Settings(parsing: text)
        #expect(settings.text(.hubURL) == "http://hub.example:8787")
        #expect(settings.whole(.pageSize) == 250)
        #expect(settings.text(.feedURLTemplate) == "http://feeds/{channelId}")
        #expect(settings.duration(.hubInterval) == .milliseconds(90_500))
        #expect(settings.duration(.markSyncInterval) == nil)
        #expect(settings.keyBindings == [KeyBindingSetting(action: "quit", keys: ["q", "C-c"], location: "config.toml:9")])
        #expect(settings.origins[.pageSize] == .file && settings.origins[.concurrency] == .default)
    }

    @Test(arguments: [
        ("[sync]\nhub_interval = 1e300", "[sync] hub_interval", "must be a number of seconds from 1 to 604800, or 0 for never, not 1e+300"),
        ("[hub]\nconcurrency = 1e300", "[hub] concurrency", "must be a whole number from 1 to 64, not 1e+300"),
        ("[hub]\nconcurrency = 0", "[hub] concurrency", "must be a whole number from 1 to 64, not 0"),
        ("[hub]\npage-size = 9223372036854775807", "[hub] page-size", "must be a whole number from 1 to 500"),
        ("[sync]\nstatus-interval = nan", "[sync] status-interval", "must be a number of seconds"),
        ("[sync]\nhub-interval = inf", "[sync] hub-interval", "must be a number of seconds"),
        ("[sync]\nhub-interval = -1", "[sync] hub-interval", "must be a number of seconds"),
        ("[store]\nlock-timeout = 1e9", "[store] lock-timeout", "must be a number of seconds from 0 to 600"),
        ("[hub]\nurl = \"ftp://hub\"", "[hub] url", "must be an http(s) URL"),
        ("[hub]\nurl = \"127.0.0.1:8787\"", "[hub] url", "must be an http(s) URL"),
    ])
    func everyNumberIsRangeChecked(text: String, setting: String, message: String) {
        #expect {
            try Settings(parsing: text)
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.location == "config.toml:2" && error.setting == setting && error.message.hasPrefix(message)
        }
    }

    @Test func unknownNamesSuggestTheNearestValidOne() {
        #expect(throws: SettingsError(location: "config.toml:3", setting: "[hub] pagesize", message: "unknown setting; did you mean page-size?")) {
            try Settings(parsing: "[hub]\nurl = \"x\"\npagesize = 3\n")
        }
        #expect(throws: SettingsError(location: "config.toml:1", setting: "[synk]", message: "unknown section; did you mean sync?")) {
            try Settings(parsing: "[synk]\nhub-interval = 3\n")
        }
        #expect(throws: SettingsError(location: "config.toml:1", setting: "url", message: "settings belong in a section; did you mean [hub] url?")) {
            try Settings(parsing: "url = \"x\"\n")
        }
    }

    @Test func aSyntaxErrorNamesItsLine() {
        #expect {
            try Settings(parsing: "[hub]\nurl = \"unterminated\n")
        } throws: { error in
            (error as? SettingsError)?.location == "config.toml:2"
        }
    }

    @Test func oldSpellingsAreReadWithOneNoteEach() throws {
        let settings = try Settings(parsing: "[hub]\npage_size = 50\nfollow_hub_channels = true\n")
        #expect(settings.whole(.pageSize) == 50)
        #expect(settings.flag(.followHubChannels))
        #expect(settings.deprecations == [
            "config.toml:3: [hub] follow_hub_channels is deprecated; write follow-hub-channels",
            "config.toml:2: [hub] page_size is deprecated; write page-size",
        ])
    }

    @Test func theEnvironmentBeatsTheFileAndAFlagBeatsBoth() throws {
        let file = try Settings(parsing: "[hub]\nurl = \"http://file\"\n[store]\nlock-timeout = 1\n")
        let environment = try file.applyingEnvironment(["METUBE_HUB_URL": "http://env", "METUBE_LOCK_TIMEOUT": "0.3"])
        #expect(environment.text(.hubURL) == "http://env" && environment.origins[.hubURL] == .environment)
        #expect(environment.duration(.lockTimeout) == .milliseconds(300))
        let flagged = try environment.applyingFlag("--hub-url", .hubURL, "http://flag")
        #expect(flagged.text(.hubURL) == "http://flag" && flagged.origins[.hubURL] == .flag)
        #expect(throws: SettingsError(location: "environment METUBE_LOCK_TIMEOUT", setting: "[store] lock-timeout",
                                      message: "must be a number of seconds from 0 to 600, not 1e300")) {
            try file.applyingEnvironment(["METUBE_LOCK_TIMEOUT": "1e300"])
        }
    }

    @Test func nearestNameOnlySuggestsCloseNames() {
        #expect(NearestName.suggestion(for: "page_sise", among: ["url", "page-size"]) == "page-size")
        #expect(NearestName.suggestion(for: "volume", among: ["url", "page-size"]) == nil)
    }
}
