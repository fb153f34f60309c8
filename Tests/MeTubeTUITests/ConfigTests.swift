import Foundation
import MeTubeCore
import Testing
@testable import MeTubeTUI
import TestSupport

@Suite("Keys and config")
struct ConfigTests {
    @Test("key names round-trip, and nonsense is refused")
    func keyNames() {
        for name in ["j", "G", "/", "?", "Space", "C-f", "Up", "PgDn", "Enter", "Esc", "東"] {
            #expect(Key(name: name)?.name == name)
        }
        #expect(Key(name: "pgup") == .pageUp)
        for bad in ["", "jk", "C-", "C-1", "Ctrl-x", "\t"] { #expect(Key(name: bad) == nil) }
    }

    @Test("every action has a default key and a help line, and no key is bound twice")
    func actionTable() {
        let map = KeyMap()
        var seen: Set<Key> = []
        for action in Action.allCases {
            let keys = map.keys(for: action)
            #expect(!keys.isEmpty, "\(action) has no key")
            #expect(!action.info.help.isEmpty)
            for key in keys {
                #expect(!seen.contains(key), "\(key.name) bound twice")
                seen.insert(key)
                #expect(map.action(for: key) == action)
            }
        }
    }

    @Test("a configured key replaces the defaults and leaves the action it had")
    func overrides() {
        // Given w rebound from toggle-watched to toggle-skipped
        let map = KeyMap(overrides: [.toggleSkipped: [Key(name: "w")!]])
        // Then w skips, s does nothing, and toggle-watched has no key left
        #expect(map.action(for: .character("w")) == .toggleSkipped)
        #expect(map.action(for: .character("s")) == nil)
        #expect(map.keys(for: .toggleWatched).isEmpty)
    }

    @Test("the config file sets keys, the open command, the policy and ASCII")
    func parse() throws {
        // Given a config with other parts' sections too
        let text = """
        # metube config
        [hub]
        url = "http://localhost:8080"

        [tui]
        open = "mpv {url}"   # player
        mark-on-open = "always"
        ascii = true

        [keys]
        toggle-watched = "x"
        move-down = "j Down C-n"
        """
        // When parsed
        let config = try Fixture.config(text)
        // Then the TUI's settings are taken and the rest left alone
        #expect(config.openCommand == "mpv {url}")
        #expect(config.markOnOpen == .always)
        #expect(config.forceASCII)
        #expect(config.keyBindings[.toggleWatched] == [.character("x")])
        #expect(config.keyBindings[.moveDown] == [.character("j"), .down, .control("n")])
    }

    @Test("bad settings get a message naming the line, the setting and the nearest valid name", arguments: [
        ("[keys]\nfly = \"x\"", "config.toml:2", "[keys] fly", "unknown action; valid: "),
        ("[keys]\nmove-dwn = \"x\"", "config.toml:2", "[keys] move-dwn", "unknown action; did you mean move-down?"),
        ("[keys]\nquit = \"Hyper-q\"", "config.toml:2", "[keys] quit", "unknown key \"Hyper-q\""),
        ("[keys]\nquit = \"Dwn\"", "config.toml:2", "[keys] quit", "unknown key \"Dwn\"; did you mean Down?"),
        ("[keys]\nquit = 3", "config.toml:2", "[keys] quit", "a binding is a string of key names"),
        ("[keys]\nquit = \"\"", "config.toml:2", "[keys] quit", "a binding is a string of key names"),
        ("[keys]\nquit = \"x\"\ntoggle-watched = \"w x\"", "config.toml:3", "[keys] toggle-watched", "x is bound to quit too"),
        ("[tui]\nmark-on-open = \"sometimes\"", "config.toml:2", "[tui] mark-on-open", "must be one of \"never\", \"on-success\", \"always\""),
        ("[tui]\nopen = true", "config.toml:2", "[tui] open", "must be a \"string\", not true"),
        ("[tui]\nvolume = 3", "config.toml:2", "[tui] volume", "unknown setting; valid: open, mark-on-open, ascii"),
        ("[tui]\nasci = true", "config.toml:2", "[tui] asci", "unknown setting; did you mean ascii?"),
        ("[tui]\nascii = \"yes\"", "config.toml:2", "[tui] ascii", "must be true or false"),
    ])
    func badSettings(text: String, location: String, setting: String, message: String) {
        #expect {
            try Fixture.config(text)
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.location == location && error.setting == setting && error.message.hasPrefix(message)
        }
    }

    @Test("full TOML: single-quoted strings and arrays of key names")
    func fullTOML() throws {
        let config = try Fixture.config("[tui]\nopen = 'mpv --fs {url}'\n[keys]\nmove-down = ['j', 'Down']\n")
        #expect(config.openCommand == "mpv --fs {url}")
        #expect(config.keyBindings[.moveDown] == [.character("j"), .down])
    }

    @Test("a missing config file gives the defaults; a malformed one is an error naming its line")
    func load() throws {
        let directory = TemporaryDirectory("metube-tui")
        defer { directory.remove() }
        #expect(try Settings.load(from: directory.url.appendingPathComponent("config.toml")) == Settings())
        let broken = directory.url.appendingPathComponent("broken.toml")
        try Data("# comment\n[tui\n".utf8).write(to: broken)
        #expect {
            try Settings.load(from: broken)
        } throws: { error in
            (error as? SettingsError)?.location == "\(broken.path):2"
        }
        let file = directory.url.appendingPathComponent("written.toml")
        try Data("[tui]\nmark-on-open = \"never\"\n".utf8).write(to: file)
        #expect(try TUIConfig(settings: Settings.load(from: file)).markOnOpen == .never)
    }

    @Test("the opener quotes the URL into the command")
    func openerCommand() {
        #expect(VideoOpener(command: "mpv {url}").commandLine(for: "https://x/?v=a'b") == "mpv 'https://x/?v=a'\\''b'")
        #expect(VideoOpener(command: nil, environment: ["BROWSER": "firefox"]).commandLine(for: "u") == "firefox 'u'")
        #expect(VideoOpener(command: nil, environment: [:]).commandLine(for: "u") == "xdg-open 'u'")
    }
}
