import Foundation
import Hummingbird
import MeTubeStore
import MeTubeThumbnails
import Testing
import TestSupport

/// Pixel pictures in the real `metube` binary in tmux, its output recorded byte for byte
/// (`pipe-pane`) from before it starts: `thumbnails = "kitty"` writes the picture with its id and
/// deletes it when the selection moves; `auto` inside tmux (`TMUX` set) asks nothing and draws
/// symbols; `auto` outside it asks, and tmux's answer does not leak as keys.
@Suite("Pixel pictures end to end in tmux", .serialized)
struct PixelPicturesEndToEndTests {
    /// A session running `metube` on a store whose thumbnails a loopback server serves, with
    /// `config` and `environment`; every byte it writes goes to the returned file.
    static func start(config: String, environment: [String: String] = [:], arguments: [String] = [], serverURL: String, in directory: TemporaryDirectory) throws -> (TmuxSession, String) {
        let storeURL = try DetailsPaneEndToEndTests.makeStore(count: 50, thumbnailBase: "\(serverURL)/thumbs", in: directory)
        try config.write(toFile: directory.path("config.toml"), atomically: true, encoding: .utf8)
        let (go, output) = (directory.path("go"), directory.path("output"))
        var variables = ["METUBE_DATA_DIR": storeURL.path, "METUBE_CONFIG": directory.path("config.toml"), "HOME": directory.url.path,
                         "BROWSER": "true", "XDG_CACHE_HOME": directory.path("cache")]
        variables.merge(environment) { _, new in new }
        // The program starts once the recording runs, when the test creates `go`.
        let wait = "while [ ! -e \"$0\" ]; do sleep 0.01; done; exec \"$@\""
        let tmux = try TmuxSession(command: ["/bin/sh", "-c", wait, go, EndToEndTests.binary.path] + arguments, environment: variables, width: 130, height: 30)
        try tmux.recordOutput(to: output)
        FileManager.default.createFile(atPath: go, contents: nil)
        return (tmux, output)
    }

    static func recorded(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    /// Polls the recorded output until `condition` holds, for up to ``TmuxSession/screenTimeout``.
    static func waitForOutput(_ path: String, _ condition: @escaping @Sendable (String) -> Bool) async throws {
        do {
            try await eventually(within: TmuxSession.screenTimeout, "the output never matched") { condition(recorded(path)) ? () : nil }
        } catch {
            Issue.record("\(error); its last 300 bytes: \(String(recorded(path).suffix(300)).debugDescription)")
        }
    }

    static func serveThumbnails() async throws -> (BackgroundService, String) {
        let picture = try DetailsPaneEndToEndTests.noisyJPEG(seed: 7)
        let router = Router()
        router.get("thumbs/:name") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "image/jpeg"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: picture)))
        }
        return await BackgroundService.serve(router, label: "thumbnail-images")
    }

    /// Runs `body` on a session started as ``start(config:environment:arguments:serverURL:in:)``
    /// does, with its thumbnail server and directory, and removes them after.
    static func withSession(_ name: String, config: String, environment: [String: String] = [:], arguments: [String] = [],
                            _ body: (TmuxSession, String) async throws -> Void) async throws {
        let (service, url) = try await serveThumbnails()
        defer { service.stop() }
        let directory = TemporaryDirectory(name)
        defer { directory.remove() }
        let (tmux, output) = try start(config: config, environment: environment, arguments: arguments, serverURL: url, in: directory)
        defer { tmux.close() }
        try await body(tmux, output)
    }

    static let kittyPicture = "\u{1B}_Ga=T,i=\(PixelPicture.kittyImageID),"
    static let kittyDelete = "\u{1B}_Ga=d,d=I,i=\(PixelPicture.kittyImageID)\u{1B}\\"

    @Test("kitty: the picture is written with its id at the pane, and deleted when the selection moves and at quit")
    func kittyPictureFollowsTheSelection() async throws {
        try await Self.withSession("metube-pixels-kitty", config: "[tui]\nthumbnails = \"kitty\"\n") { tmux, output in
            try await tmux.waitFor { $0.contains("hub: not configured") }

            try tmux.send("Tab")
            try await Self.waitForOutput(output) { $0.contains(Self.kittyPicture) }
            #expect(!Self.recorded(output).contains(Self.kittyDelete))
            try tmux.send("j")
            try await Self.waitForOutput(output) { $0.contains(Self.kittyDelete) }
            // The next video's picture follows, drawn again after the delete.
            try await Self.waitForOutput(output) { $0.components(separatedBy: Self.kittyPicture).count >= 3 }
            try tmux.send("q")
            let status = try await tmux.waitForExit()
            #expect(status == 0)
            #expect(Self.recorded(output).components(separatedBy: Self.kittyDelete).count == 3, "deleted when moving and at quit")
        }
    }

    @Test("metube show --thumbnail with thumbnails = \"sixel\" on a terminal draws the picture as sixel")
    func showDrawsSixel() async throws {
        let videoID = try #require(try SyntheticLibrary(channelCount: 4, videoCount: 50, markCount: 0).videos().first?.id)
        try await Self.withSession("metube-pixels-show", config: "[tui]\nthumbnails = \"sixel\"\n", arguments: ["show", videoID, "--thumbnail"]) { tmux, output in
            let status = try await tmux.waitForExit()
            #expect(status == 0)
            #expect(Self.recorded(output).contains("\u{1B}P0;1;0q\"1;1;"))
            #expect(!Self.recorded(output).contains("\u{1B}[38;2;"))
        }
    }

    @Test("auto inside tmux: no question to the terminal, no pixels; coloured block cells")
    func autoInsideTmuxDrawsSymbols() async throws {
        try await Self.withSession("metube-pixels-tmux", config: "", environment: ["TMUX": "/tmp/tmux-test/default,1,0"]) { tmux, output in
            try await tmux.waitFor { $0.contains("hub: not configured") }
            try tmux.send("Tab")
            try await tmux.waitFor(escapes: true, DetailsPaneEndToEndTests.hasColouredCells)
            try tmux.send("q")
            let status = try await tmux.waitForExit()
            #expect(status == 0)
            #expect(!Self.recorded(output).contains("\u{1B}_G"))
            #expect(!Self.recorded(output).contains("\u{1B}[c"))
        }
    }

    @Test("auto outside tmux asks the terminal; tmux answers DA1 without sixel, so symbols, and nothing leaks as keys")
    func autoAsksAndTheAnswerDoesNotLeak() async throws {
        try await Self.withSession("metube-pixels-probe", config: "") { tmux, output in
            try await tmux.waitFor { $0.contains("hub: not configured") }
            #expect(Self.recorded(output).contains("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c"))
            try tmux.send("Tab")
            try await tmux.waitFor(escapes: true, DetailsPaneEndToEndTests.hasColouredCells)
            let screen = try tmux.capture()
            // DA1's answer `ESC [ ? 1 ; 2 c` read as keys would open the help (`?`).
            #expect(!screen.contains("This help"))
            try tmux.send("q")
            let status = try await tmux.waitForExit()
            #expect(status == 0)
            #expect(!Self.recorded(output).contains(Self.kittyPicture))
        }
    }
}
