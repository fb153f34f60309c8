import Foundation
import Testing
import TestSupport

/// The real `metube` binary in tmux whose answer to the start's terminal probe comes late (tmux
/// held stopped until curses has the terminal, as a slow link or a loaded machine would): the
/// answer is dropped, not read as the keys `?` and `c`.
@Suite("Late terminal answer in tmux")
struct LateProbeAnswerEndToEndTests {
    /// Whether the terminal at `path` is in curses' cbreak mode: no line editing, no echo, reads
    /// of at least one character (the probe reads with none, a shell has line editing).
    static func cursesHasTheTerminal(_ path: String) -> Bool {
        let descriptor = open(path, O_RDWR | O_NOCTTY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return false }
        let minimum = withUnsafeBytes(of: settings.c_cc) { $0[Int(VMIN)] }
        return settings.c_lflag & tcflag_t(ICANON | ECHO) == 0 && minimum == 1
    }

    @Test("DA1's answer arriving after the probe stopped waiting opens neither the help nor the channels view")
    func lateAnswerIsNotReadAsKeys() throws {
        // Given metube about to start in tmux (with thumbnails auto, outside tmux as far as it knows)
        let directory = TemporaryDirectory("metube-late-answer")
        defer { directory.remove() }
        let storeURL = try EndToEndTests.makeStore(SyntheticLibrary(channelCount: 4, videoCount: 40, markCount: 0), in: directory)
        let (go, timing) = (directory.path("go"), directory.path("timing.jsonl"))
        let wait = "while [ ! -e \"$0\" ]; do sleep 0.01; done; exec \"$@\""
        let tmux = try TmuxSession(command: ["/bin/sh", "-c", wait, go, EndToEndTests.binary.path, "--timing", timing],
                                   environment: ["METUBE_DATA_DIR": storeURL.path, "METUBE_CONFIG": directory.path("config.toml"),
                                                 "HOME": directory.url.path, "BROWSER": "true"])
        defer { tmux.close() }
        let (server, terminal) = (try tmux.serverProcessID(), try tmux.paneTerminal())

        // When tmux cannot answer the probe until curses has taken the terminal
        kill(server, SIGSTOP)
        var resumed = false
        defer { if !resumed { kill(server, SIGCONT) } }
        FileManager.default.createFile(atPath: go, contents: nil)
        let deadline = ContinuousClock.now + .seconds(60)
        while !Self.cursesHasTheTerminal(terminal), ContinuousClock.now < deadline { usleep(10_000) }
        #expect(Self.cursesHasTheTerminal(terminal), "metube never put the terminal in curses' mode")
        kill(server, SIGCONT)
        resumed = true

        // Then the feed shows (tmux answered the probe before it drew the first frame that follows
        // the question), and the next key after the answer acts on the feed
        try tmux.waitFor { $0.contains("hub: not configured") }
        try tmux.send("f")
        // (the header leaves `unwatched`: for `all`, or for the channels view or the help that a
        // leaked answer opens)
        let screen = try tmux.waitFor { EndToEndTests.line(0, of: $0).contains("metube · ") && !EndToEndTests.line(0, of: $0).contains("unwatched") }
        #expect(EndToEndTests.line(0, of: screen).contains("metube · all"), "\(screen)")
        try tmux.send("q")
        #expect(try EndToEndTests.waitForExit(tmux) == 0)
        // And `f` is the one key it handled before `q` (a leaked answer is seven more, whose views
        // a look at the screen could miss)
        let keys = try String(contentsOfFile: timing, encoding: .utf8).split(separator: "\n").compactMap { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).flatMap { $0["event"] as? String == "key" ? $0["key"] as? String : nil }
        }
        #expect(keys == ["f"])
    }
}
