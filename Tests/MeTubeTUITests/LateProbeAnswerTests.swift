import Testing
@testable import MeTubeTUI

/// The terminal's answers to the start's probe arriving after it stopped waiting: dropped, not
/// read as keys; anything else after an Escape stays keys.
@Suite("Late probe answer")
struct LateProbeAnswerTests {
    static func codes(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    /// The verdict on each prefix of `text`, the last one on the whole.
    static func verdicts(_ text: String, owed: Bool = true) -> (prefixes: [LateProbeAnswer.Verdict], whole: LateProbeAnswer.Verdict, owedAfter: Bool) {
        var answer = LateProbeAnswer(isOwed: owed)
        let all = codes(text)
        let prefixes = (1..<all.count).map { answer.judge(Array(all.prefix($0))) }
        let whole = answer.judge(all)
        return (prefixes, whole, answer.isOwed)
    }

    @Test("DA1's answer, as tmux and a VT220 give it, is an answer; after it none is owed")
    func deviceAttributes() {
        for text in ["\u{1B}[?1;2c", "\u{1B}[?62;4;6;22c", "\u{1B}[?64;1;2;6;9;15;18;21;22;44c"] {
            let judged = Self.verdicts(text)
            #expect(judged.prefixes.allSatisfy { $0 == .partial }, "\(text.debugDescription)")
            #expect(judged.whole == .answer, "\(text.debugDescription)")
            #expect(!judged.owedAfter)
        }
    }

    @Test("kitty's graphics answer is an answer, and DA1's is still owed after it")
    func kittyGraphics() {
        for text in ["\u{1B}_Gi=31;OK\u{1B}\\", "\u{1B}_Gi=31;ENOTSUPPORTED:unsupported\u{1B}\\"] {
            let judged = Self.verdicts(text)
            #expect(judged.prefixes.allSatisfy { $0 == .partial }, "\(text.debugDescription)")
            #expect(judged.whole == .answer, "\(text.debugDescription)")
            #expect(judged.owedAfter)
        }
    }

    @Test("Escape then keys, or an answer's start turning into keys, are keys")
    func keys() {
        for text in ["\u{1B}j", "\u{1B}[x", "\u{1B}[?1;2x", "\u{1B}[?1;2cq", "\u{1B}_G\u{1B}x", "\u{1B}\u{1B}"] {
            #expect(Self.verdicts(text).whole == .keys, "\(text.debugDescription)")
        }
        #expect(Self.verdicts("\u{1B}[?" + String(repeating: "1", count: 300) + "c").whole == .keys)
    }

    @Test("with no answer owed (it came in time), even an answer's shape is keys")
    func notOwed() {
        #expect(Self.verdicts("\u{1B}[?1;2c", owed: false).whole == .keys)
        #expect(Self.verdicts("\u{1B}", owed: false).whole == .keys)
    }
}
