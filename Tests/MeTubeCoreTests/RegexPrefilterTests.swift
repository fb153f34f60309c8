import Foundation
@testable import MeTubeCore
import Testing

/// The title regex prefilter (a fast path): it must decide exactly as ICU does, on random
/// patterns and hostile titles, and take only the patterns it can decide.
@Suite struct RegexPrefilterTests {
    /// Pieces of patterns: plain text, anchors, escapes, and what makes a pattern more than text.
    private static let patternPieces = [
        "trailer", "LIVE", "Live", "#shorts", "part", "podcast ep", "s", "k", "ss", "fi", "st", "i", "a", " ",
        "\\b", "^", "$", "|", "\\.", "\\(", "\\\\", "\\#", "\\ ", "(?-i)", "(?i)", "\\B", "\\w", "\\d", ".", "a+", "(a+)+$", "[ks]",
        "\\Qa.b\\E", "é", "ß", "K", "{2}", "(", ")", "\\x{41}", "\\N{LATIN SMALL LETTER K}", "\\",
    ]

    /// Pieces of titles: ASCII words in any case, and characters that fold to ASCII, combine,
    /// or are outside the Basic Multilingual Plane.
    private static let titlePieces = [
        "Trailer", "trailer", "TRAILER", "live", "LIVE", "Live", "#shorts", "part.2", "(remix)", "podcast ep", "podcast  ep",
        " ", "_", "-", "a", "s", "k", "i", "ss", "fi", "st", "ff",
        "\u{212A}", "\u{017F}", "\u{00DF}", "\u{1E9E}", "\u{FB01}", "\u{FB05}", "\u{0130}", "\u{0131}", "\u{0149}", "\u{01F0}",
        "é", "e\u{0301}", "東京の夜", "🎬", "👍🏽", "\u{200D}", "\u{0000}", "\n", "Ｔｒａｉｌｅｒ", "ΣΑΣ", "İstanbul",
    ]

    @Test func thePrefilteredRegexDecidesExactlyAsICUOnRandomPatternsAndHostileTitles() throws {
        var random = SplitMix64(seed: 0x7072_6566)
        var prefiltered = 0
        var decided = 0
        for round in 0..<600 {
            // Given a random pattern, mostly plain text, sometimes not
            let plainOnly = random.next() % 3 != 0
            let pieces = plainOnly ? Self.patternPieces.prefix(22) : Self.patternPieces[...]
            let pattern = (0..<(1 + Int(random.next() % 4))).map { _ in pieces[pieces.startIndex + Int(random.next() % UInt64(pieces.count))] }.joined()
            guard let regex = BoundedRegex(pattern) else { continue }
            if RegexPrefilter(pattern: pattern) != nil { prefiltered += 1 }
            // When it is evaluated on random titles with and without the prefilter
            for _ in 0..<40 {
                let title = (0..<Int(random.next() % 6)).map { _ in Self.titlePieces[Int(random.next() % UInt64(Self.titlePieces.count))] }.joined()
                // Then both say the same (ICU's time limit may stop either evaluation on a loaded
                // machine: a stop decides nothing)
                let (fast, reference) = (regex.firstMatch(in: title), regex.firstMatchByICU(in: title))
                guard fast != .stopped, reference != .stopped else { continue }
                decided += 1
                #expect(fast == reference, "round \(round): \(pattern) on \(title.debugDescription)")
            }
        }
        #expect(prefiltered > 200, "the rounds exercise the prefilter")
        #expect(decided > 10_000, "most evaluations decide")
    }

    @Test func onlyPlainTextPatternsHaveAPrefilter() {
        for pattern in ["trailer", "\\btrailer\\b", "(?-i)LIVE", "trailer|teaser", "^part\\.2$", "#shorts"] {
            #expect(RegexPrefilter(pattern: pattern) != nil, "\(pattern)")
        }
        for pattern in ["", "^", "\\b", "a|", "|a", "a+", "(a)", "[a]", "a.b", "\\w+", "\\Qa\\E", "é", "(?x)a b", "a\\", "\\x41", "\\Bfoo", "a\\ b"] {
            #expect(RegexPrefilter(pattern: pattern) == nil, "\(pattern)")
        }
    }

    @Test func everyCharacterWhoseCaseMappingsReachASCIIIsListed() {
        // Given every scalar outside ASCII up to the end of plane 2
        for value in UInt32(0x80)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar)
            // When its case mappings (and their round trips) hold an ASCII letter
            let mappings = [text.lowercased(), text.uppercased(), text.lowercased().uppercased(), text.uppercased().lowercased()]
            let reachesASCII = mappings.contains { $0.unicodeScalars.contains { $0.isASCII && $0.properties.isAlphabetic } }
            // Then the prefilter lists it, so a title holding it goes to ICU
            if reachesASCII { #expect(RegexPrefilter.foldsToASCII(scalar), "U+\(String(value, radix: 16, uppercase: true))") }
        }
    }
}
