import Foundation
import MeTubeCore
import Testing
@testable import MeTubeTUI

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

    @Test("bad settings get a message naming the setting", arguments: [
        ("[keys]\nfly = \"x\"", "keys.fly", "unknown action"),
        ("[keys]\nquit = \"Hyper-q\"", "keys.quit", "unknown key \"Hyper-q\""),
        ("[keys]\nquit = 3", "keys.quit", "a binding is a string of key names"),
        ("[keys]\nquit = \"\"", "keys.quit", "a binding is a string of key names"),
        ("[tui]\nmark-on-open = \"sometimes\"", "tui.mark-on-open", "is one of \"never\", \"on-success\", \"always\""),
        ("[tui]\nopen = true", "tui.open", "takes a \"string\""),
        ("[tui]\nvolume = 3", "tui.volume", "unknown setting"),
        ("[tui]\nascii = \"yes\"", "tui.ascii", "takes true or false"),
    ])
    func badSettings(text: String, setting: String, message: String) {
        #expect {
            try Fixture.config(text)
        } throws: { error in
            guard case .configInvalid(let badSetting, let text)? = error as? TUIError else { return false }
            return badSetting == setting && text.hasPrefix(message)
        }
    }

    @Test("a missing config file gives the defaults; an unreadable one is an error")
    func load() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("metube-tui-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try TUIConfig.load(from: directory.appendingPathComponent("config.toml")) == TUIConfig())
        let broken = directory.appendingPathComponent("broken.toml")
        try Data("[tui\n".utf8).write(to: broken)
        #expect(throws: TUIError.self) { try TUIConfig.load(from: broken) }
        let file = directory.appendingPathComponent("written.toml")
        try Data("[tui]\nmark-on-open = \"never\"\n".utf8).write(to: file)
        #expect(try TUIConfig.load(from: file).markOnOpen == .never)
    }

    @Test("the opener quotes the URL into the command")
    func openerCommand() {
        #expect(VideoOpener(command: "mpv {url}").commandLine(for: "https://x/?v=a'b") == "mpv 'https://x/?v=a'\\''b'")
        #expect(VideoOpener(command: nil, environment: ["BROWSER": "firefox"]).commandLine(for: "u") == "firefox 'u'")
        #expect(VideoOpener(command: nil, environment: [:]).commandLine(for: "u") == "xdg-open 'u'")
    }
}
