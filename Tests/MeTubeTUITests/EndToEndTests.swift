import Foundation
import MeTubeCore
import MeTubeStore
import MeTubeTUI
import Testing
import TestSupport

/// The real `metube` binary in tmux on a generated store: what a user sees and does, and what the
/// store on disk holds afterwards.
@Suite("TUI end to end in tmux")
struct EndToEndTests {
    /// The `metube` binary built next to this test bundle.
    static let binary: URL = {
        let directory = Bundle.main.executableURL?.deletingLastPathComponent() ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let beside = directory.appendingPathComponent("metube")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug/metube").standardized
    }()

    /// A store of `library` in a fresh directory, written with the real store API.
    static func makeStore(_ library: SyntheticLibrary, in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("data", isDirectory: true)
        try library.fill(Store.open(at: url))
        return url
    }

    /// Starts `metube` on the store in `directory` at `width` × `height`, with its home and data
    /// directories (where offline copies go) inside `directory`.
    static func start(_ storeURL: URL, in directory: TemporaryDirectory, width: Int = 100, height: Int = 30, extraEnvironment: [String: String] = [:], arguments: [String] = []) throws -> TmuxSession {
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "metube binary missing at \(binary.path): run swift build first")
        var environment = ["METUBE_DATA_DIR": storeURL.path, "METUBE_CONFIG": directory.path("config.toml"), "HOME": directory.url.path,
                           "XDG_DATA_HOME": directory.path("share"), "BROWSER": "true"]
        environment.merge(extraEnvironment) { _, new in new }
        return try TmuxSession(command: [binary.path] + arguments, environment: environment, width: width, height: height)
    }

    @Test("open, navigate, mark, search, filter, channels, resize, quit; the marks are on disk")
    func session() throws {
        // Given a store of 300 videos, 100 of them marked
        let directory = TemporaryDirectory("metube-tui-e2e")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 12, videoCount: 300, markCount: 100)
        let storeURL = try Self.makeStore(library, in: directory)
        let tmux = try Self.start(storeURL, in: directory)
        defer { tmux.close() }

        // When it opens: the unwatched feed, the status line with both services not configured
        let first = try tmux.waitFor { $0.contains("hub: not configured") }
        #expect(first.split(separator: "\n").first?.contains("metube · unwatched") == true)

        // When moving down twice and marking watched: the third row turns watched and pending
        let third = library.video(2)
        try tmux.send("j", "j", "w")
        try tmux.waitFor { Self.line(3, of: $0).hasPrefix("↻ ○") }
        // And skipping the first row with the arrow keys
        try tmux.send("Up", "Up", "s")
        try tmux.waitFor { Self.line(1, of: $0).hasPrefix("↻ ⊘") }

        // When searching for the title of the 200th video, under the all filter
        try tmux.send("f")
        try tmux.waitFor { $0.split(separator: "\n").first?.contains("metube · all") == true }
        let wanted = library.video(200)
        try tmux.send("/")
        try tmux.type("#200")
        try tmux.send("Enter")
        let found = try tmux.waitFor { $0.contains("1 match for \"#200\"") }
        #expect(found.contains(String(wanted.title.prefix(12))))

        // When opening the channels view and one channel
        try tmux.send("c")
        try tmux.waitFor { $0.contains("channels (unseen, videos)") }
        try tmux.send("Enter")
        try tmux.waitFor { $0.split(separator: "\n").first?.contains("metube · all · ") == true }
        try tmux.send("Escape", "Escape")
        try tmux.waitFor { $0.split(separator: "\n").first?.hasPrefix(" metube · all") == true && !$0.contains("channels (") }

        // When the terminal shrinks to 40×10, then below, then grows again
        try tmux.resize(width: 40, height: 10)
        try tmux.waitFor { screen in screen.contains("hub:") && screen.split(separator: "\n").allSatisfy { TextWidth.of($0) <= 40 } }
        try tmux.resize(width: 30, height: 8)
        try tmux.waitFor { $0.contains("terminal too small") }
        try tmux.resize(width: 100, height: 30)
        try tmux.waitFor { $0.contains("hub: not configured") && !$0.contains("too small") }

        // When quitting
        try tmux.send("q")
        let status = try Self.waitForExit(tmux)

        // Then it exits cleanly and the store on disk holds both marks
        #expect(status == 0, "screen at exit:\n\((try? tmux.capture()) ?? "")")
        let reopened = try Store.open(at: storeURL)
        #expect(reopened.library().marks[third.id]?.status == .watched)
        #expect(reopened.library().marks[library.video(0).id]?.status == .skipped)
    }

    @Test("a mark made by another process appears without a key press")
    func externalMark() throws {
        // Given the TUI open on a store with no marks
        let directory = TemporaryDirectory("metube-tui-e2e")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 4, videoCount: 50, markCount: 0)
        let storeURL = try Self.makeStore(library, in: directory)
        let tmux = try Self.start(storeURL, in: directory)
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("hub: not configured") }
        try tmux.send("f")
        try tmux.waitFor { $0.split(separator: "\n").first?.contains("metube · all") == true }

        // When another process marks the newest video watched
        let other = try Store.open(at: storeURL)
        _ = try other.mark(library.video(0).id, as: .watched)

        // Then the TUI shows it by itself (how soon is a figure for metube-bench, not a test)
        try tmux.waitFor { Self.line(1, of: $0).hasPrefix("↻ ○") }
        try tmux.send("q")
        #expect(try Self.waitForExit(tmux) == 0)
    }

    @Test("an ASCII locale gets ASCII badges; Ctrl-C ends the TUI with status 130")
    func asciiAndTermination() throws {
        let directory = TemporaryDirectory("metube-tui-e2e")
        defer { directory.remove() }
        let library = SyntheticLibrary(channelCount: 4, videoCount: 50, markCount: 0)
        let storeURL = try Self.makeStore(library, in: directory)
        let tmux = try Self.start(storeURL, in: directory, extraEnvironment: ["LANG": "C", "LC_ALL": "C"])
        defer { tmux.close() }
        try tmux.waitFor { $0.contains("hub: not configured") }
        try tmux.send("w")
        try tmux.waitFor { Self.line(1, of: $0).hasPrefix("~ o") }
        try tmux.send("C-c")
        #expect(try Self.waitForExit(tmux) == 130)
    }

    /// The live position, in seconds, that line `number` of `screen` shows while its video plays
    /// (`▶ 5:07`, `▶ 1:02:03`); `nil` when it shows none.
    static func livePosition(line number: Int, of screen: String) -> Int? {
        guard let after = line(number, of: screen).components(separatedBy: "▶ ").dropFirst().first else { return nil }
        let clock = after.prefix { $0.isASCII && ($0.isNumber || $0 == ":") }
        let parts = clock.split(separator: ":").map { Int($0) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else { return nil }
        return parts.reduce(0) { $0 * 60 + ($1 ?? 0) }
    }

    static func line(_ number: Int, of screen: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        return number < lines.count ? String(lines[number]) : ""
    }

    /// The program's exit status once it has ended; `nil` when it still runs after
    /// ``TmuxSession/screenTimeout``.
    static func waitForExit(_ tmux: TmuxSession) throws -> Int32? {
        let deadline = ContinuousClock.now + TmuxSession.screenTimeout
        while ContinuousClock.now < deadline {
            if let status = try tmux.exitStatus() { return status }
            usleep(10_000)
        }
        return nil
    }
}
