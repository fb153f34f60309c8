import Foundation
import MeTubeCore
import Testing

/// `trimmingWhitespace()` trims exactly what Foundation's `trimmingCharacters(in:
/// .whitespacesAndNewlines)` trims, for every character.
@Suite struct WhitespaceTrimmingTests {
    @Test func everyCharacterIsTrimmedAsFoundationTrimsIt() {
        // Given every Unicode scalar of the planes in use (and the last), at both ends of a text and alone
        var differences: [String] = []
        for value in Array(UInt32(0)...0x3_FFFF) + Array(0xE_0000...0xE_01EF) + [0x10_FFFF] {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for text in ["\(scalar)x\(scalar)", "\(scalar)", "\(scalar)\(scalar) a b\u{301}\(scalar)"] {
                // When it is trimmed both ways, then the results are the same
                let expected = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if text.trimmingWhitespace() != expected || Array(text.trimmingWhitespace().unicodeScalars) != Array(expected.unicodeScalars) {
                    differences.append(String(value, radix: 16))
                }
            }
        }
        #expect(differences.isEmpty, "U+\(differences.prefix(20).joined(separator: ", U+"))")
    }

    @Test func textsOfMixedWhitespaceAndCombiningMarks() {
        let texts = ["", " ", " \t\n\r ", "  a  ", "\u{3000}東京\u{3000}", " \u{301}x ", "x\u{200B}", "\u{FEFF}x\u{FEFF}", "\u{85}a\u{2028}",
                     "\r\n yt:video:abc \r\n", "🚀 ", "\u{A0}\u{A0}", "a\u{0}", "\u{1680}\u{205F}b\u{202F}"]
        for text in texts {
            #expect(Array(text.trimmingWhitespace().unicodeScalars) == Array(text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars), "\(Array(text.unicodeScalars))")
        }
    }
}
