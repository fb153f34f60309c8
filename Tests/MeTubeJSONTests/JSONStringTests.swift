import Foundation
import MeTubeCore
import MeTubeJSON
import Testing

/// ``JSONString`` is the one string escaper of every hand-written writer (the store's snapshots,
/// the hub's and the mark-sync service's answers, stored status fields): it must write what
/// Foundation's `JSONEncoder` writes, byte for byte, and read back as the same string.
@Suite struct JSONStringTests {
    /// Every control character, the characters JSON escapes, `/`, and multi-byte characters.
    static let alphabet: [Character] = (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }
        + ["\"", "\\", "/", "a", "Z", " ", "é", "€", "𝄞", "🇺🇦", "\u{7F}", "\u{2028}"]

    @Test(arguments: [false, true]) func randomStringsAreWrittenExactlyAsJSONEncoderWritesThem(escapingSlashes: Bool) throws {
        let encoder = JSONEncoder()
        if !escapingSlashes { encoder.outputFormatting = .withoutEscapingSlashes }
        var random = SplitMix64(seed: 21)
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...24, using: &random)
            let string = String((0..<length).map { _ in Self.alphabet.randomElement(using: &random)! })
            var written: [UInt8] = []
            JSONString.write(string, escapingSlashes: escapingSlashes, to: &written)
            #expect(written == Array(try encoder.encode(string)), "\(string.debugDescription)")
            #expect(try JSONDecoder().decode(String.self, from: Data(written)) == string)
        }
    }

    @Test func eachEscapeIsTheShortFormWhereJSONHasOne() {
        var written: [UInt8] = []
        JSONString.write("\"\\/\n\r\t\u{8}\u{C}\u{1}\u{1F}", to: &written)
        #expect(String(decoding: written, as: UTF8.self) == #""\"\\/\n\r\t\b\f\u0001\u001f""#)
    }
}
