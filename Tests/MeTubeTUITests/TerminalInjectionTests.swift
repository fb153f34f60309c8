import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeTUI
import Testing
import TestSupport

/// A hub's title with an OSC "set window title" sequence, shown in a real terminal (tmux): the
/// terminal's title must stay the user's.
@Suite("Terminal injection in tmux")
struct TerminalInjectionTests {
    static let hostileTitle = "Cats\u{1B}]2;pwned\u{07}\u{1B}]0;pwned\u{07}\r\u{9B}2J after"

    private static func hostileStore(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("data", isDirectory: true)
        let store = try Store.open(at: url)
        let channel = Channel(id: SyntheticLibrary.channelID(1), title: "Chan\u{1B}]2;pwned\u{07}nel")
        try store.apply(StoreChange(videos: [Video(id: SyntheticLibrary.videoID(0), channelID: channel.id, title: hostileTitle, published: Date())],
                                    channels: [channel]))
        return url
    }

    private static func paneTitle(_ tmux: TmuxSession) throws -> String {
        try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["tmux", "-S", tmux.socket, "display-message", "-p", "#{pane_title}"]).stdout
    }

    @Test("metube list and channels list in a terminal leave its title alone")
    func cliOutput() throws {
        let directory = TemporaryDirectory("metube-inject")
        defer { directory.remove() }
        let store = try Self.hostileStore(in: directory)
        let script = "\"$0\" list --filter all --data-dir \"$1\"; \"$0\" channels list --data-dir \"$1\"; echo done"
        let tmux = try TmuxSession(command: ["/bin/sh", "-c", script, EndToEndTests.binary.path, store.path],
                                   environment: ["XDG_STATE_HOME": directory.path("state"), "METUBE_CONFIG": directory.path("none.toml")])
        defer { tmux.close() }
        let screen = try tmux.waitFor { $0.contains("done") }
        #expect(screen.contains("Cats]2;pwned]0;pwned 2J after"), "\(screen)")
        #expect(!(try Self.paneTitle(tmux)).contains("pwned"))
    }

    @Test("the TUI draws hostile titles without their control sequences")
    func tuiOutput() throws {
        let directory = TemporaryDirectory("metube-inject")
        defer { directory.remove() }
        let tmux = try EndToEndTests.start(try Self.hostileStore(in: directory), in: directory,
                                           extraEnvironment: ["XDG_STATE_HOME": directory.path("state")])
        defer { tmux.close() }
        let screen = try tmux.waitFor { $0.contains("after") }
        #expect(screen.contains("Cats]2;pwned]0;pwned 2J after"), "\(screen)")
        #expect(!(try Self.paneTitle(tmux)).contains("pwned"))
        try tmux.send("q")
        #expect(try EndToEndTests.waitForExit(tmux) == 0)
    }
}
