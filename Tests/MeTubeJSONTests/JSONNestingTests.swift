import MeTubeCore
import MeTubeJSON
import Testing

/// ``JSONNesting`` scans bytes in memory when the sequence has them there (arrays, `Data`, NIO's
/// `ByteBufferView`) and copies any other sequence first: both ways must give the same answer,
/// counting only brackets outside strings.
@Suite struct JSONNestingTests {
    /// The same bytes as a sequence that has no contiguous storage.
    static func uncontiguous(_ text: String) -> AnySequence<UInt8> {
        AnySequence(text.utf8.lazy.map { $0 })
    }

    @Test func thirtyTwoLevelsPassAndThirtyThreeAreRefused() {
        for (depth, exceeds) in [(31, false), (32, false), (33, true)] {
            let text = String(repeating: "[", count: depth - 1) + #"{"a":1}"# + String(repeating: "]", count: depth - 1)
            #expect(JSONNesting.exceedsLimit(Array(text.utf8)) == exceeds, "depth \(depth)")
            #expect(JSONNesting.exceedsLimit(Self.uncontiguous(text)) == exceeds, "depth \(depth), uncontiguous")
        }
    }

    @Test func bracketsInsideStringsAndAfterEscapedQuotesDoNotCount() {
        let text = #"{"a":"[[[[{{{{\"[[[[","b":[1]}"#
        #expect(!JSONNesting.exceedsLimit(Array(text.utf8), maxDepth: 2))
        #expect(JSONNesting.exceedsLimit(Array(text.utf8), maxDepth: 1))
        #expect(!JSONNesting.exceedsLimit(Self.uncontiguous(text), maxDepth: 2))
    }

    @Test func randomTextsAreJudgedByTheirDeepestBracketOutsideStrings() {
        let alphabet: [Character] = ["[", "]", "{", "}", "\"", "\\", "a", ":", ","]
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let text = String((0..<Int.random(in: 0...60, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let maxDepth = Int.random(in: 0...6, using: &random)
            let expected = Self.deepest(text) > maxDepth
            #expect(JSONNesting.exceedsLimit(Array(text.utf8), maxDepth: maxDepth) == expected, "\(text)")
            #expect(JSONNesting.exceedsLimit(Self.uncontiguous(text), maxDepth: maxDepth) == expected, "\(text), uncontiguous")
        }
    }

    /// The deepest bracket outside strings, worked out character by character.
    static func deepest(_ text: String) -> Int {
        var (depth, deepest, inString, escaped) = (0, 0, false, false)
        for character in text {
            if escaped { escaped = false; continue }
            if inString {
                if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true
            case "[", "{": depth += 1; deepest = max(deepest, depth)
            case "]", "}": depth -= 1
            default: break
            }
        }
        return deepest
    }
}
