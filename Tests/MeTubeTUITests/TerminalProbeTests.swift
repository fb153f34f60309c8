import Testing
@testable import MeTubeTUI

/// `thumbnails = "auto"`: the terminal's answers to the kitty graphics query and DA1, recorded
/// from real terminals, and what each makes of the mode.
@Suite("Terminal probe")
struct TerminalProbeTests {
    static func probe(_ answer: String) -> TerminalProbe { TerminalProbe(parsing: Array(answer.utf8)) }

    @Test("kitty: OK to the graphics query, then DA1")
    func kittyAnswers() {
        let probe = Self.probe("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c")
        #expect(probe.kittyGraphics && probe.answered && !probe.sixel)
        #expect(probe.mode == .kitty)
    }

    @Test("a kitty error to the query is no kitty graphics")
    func kittyError() {
        let probe = Self.probe("\u{1B}_Gi=31;ENOTSUPPORTED:unsupported\u{1B}\\\u{1B}[?62;22c")
        #expect(!probe.kittyGraphics && probe.answered)
        #expect(probe.mode == .symbols)
    }

    @Test("DA1 with attribute 4 is sixel; without it, symbols")
    func deviceAttributes() {
        #expect(Self.probe("\u{1B}[?62;4;6;22c").mode == .sixel)
        #expect(Self.probe("\u{1B}[?63;1;2;4;6;9;15;22c").mode == .sixel)
        #expect(Self.probe("\u{1B}[?1;2c").mode == .symbols)
        #expect(Self.probe("\u{1B}[?64;1;2;6;9;15;18;21;22;44c").mode == .symbols)
    }

    @Test("keys typed meanwhile around the answers are skipped")
    func keysAround() {
        #expect(Self.probe("jj\u{1B}_Gi=31;OK\u{1B}\\k\u{1B}[?62;4c q").mode == .kitty)
    }

    @Test("garbage, a partial answer or none is symbols")
    func noAnswer() {
        for answer in ["", "garbage\u{1B}[31m\u{1B}]0;x\u{07}", "\u{1B}_Gi=31;OK\u{1B}\\", "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4", "\u{1B}[?6x;4c", "\u{1B}"] {
            let probe = Self.probe(answer)
            #expect(!probe.answered, "\(answer.debugDescription)")
            #expect(probe.mode == .symbols, "\(answer.debugDescription)")
        }
    }

    @Test("auto inside tmux is symbols without asking; under NO_COLOR or no answer, symbols; set modes stay")
    func resolving() {
        var asked = false
        let kitty = { () -> TerminalProbe? in
            asked = true
            return Self.probe("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62c")
        }
        #expect(ThumbnailMode.auto.resolved(environment: ["TMUX": "/tmp/tmux-0/default,1,0"], probe: kitty) == .symbols)
        #expect(!asked)
        #expect(ThumbnailMode.auto.resolved(environment: [:], probe: kitty) == .kitty)
        #expect(ThumbnailMode.auto.resolved(environment: [:]) { nil } == .symbols)
        for mode in [ThumbnailMode.symbols, .kitty, .sixel, .off] {
            #expect(mode.resolved(environment: ["TMUX": "x"]) { nil } == mode)
        }
    }
}
