import Foundation
import MeTubeCore
import MeTubeJSON
import Testing

/// ``JSONScanner`` is the one hand-written JSON reader (the store's snapshots, the hub's pages, the
/// mark-sync server's request and record fast paths): it must accept exactly what
/// `JSONSerialization` accepts and read the same strings and numbers, over escapes, surrogate
/// pairs, lone surrogates, invalid UTF-8 and JSON's number grammar.
@Suite struct JSONScannerDifferentialTests {
    /// Pieces of a string literal's body, valid and not.
    static let stringPieces: [[UInt8]] = [
        "a", "Zz 09", "é", "€", "😀", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
        "\\u0041", "\\u00e9", "\\u00E9", "\\u0000", "\\u001f", "\\u20ac", "\\uFFFF",
        "\\ud83d\\ude00", "\\uD834\\uDD1E", "\\ud800", "\\udc00", "\\udbff", "\\ud800\\u0041", "\\ud800\\ud800",
        "\\x", "\\u12", "\\u12g4", "\\",
    ].map { Array($0.utf8) } + [[0x01], [0x1F], [0x7F], [0xFF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xED, 0xA0, 0x80]]

    /// Number tokens, valid and not, and the bounds of `Int64` and `Double`.
    static let numberTokens = [
        "0", "-0", "1", "-1", "42", "01", "-01", "00", "1.", ".5", "-.5", "1.5", "-1.25", "1e3", "1E3", "1e+3", "1e-3", "1e",
        "1e+", "+1", "-", "--1", "1-2", "1.2.3", "0x10", "9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1e308", "1e309", "-1e309",
        "1e-400", "4.9e-324", "2.2250738585072014e-308", "123456789012345678901234567890", "1.0", "100e-2",
    ]

    @Test func stringsReadAsJSONSerializationReadsThem() throws {
        var random = SplitMix64(seed: 38)
        var compared = 0
        for _ in 0..<5_000 {
            var literal: [UInt8] = Array("[\"".utf8)
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                literal += Self.stringPieces.randomElement(using: &random)!
            }
            literal += Array("\"]".utf8)
            let expected = Self.serializationStrings(literal)
            let scanned = Self.scannedStrings(literal)
            #expect(scanned == expected, "\(String(decoding: literal, as: UTF8.self).debugDescription): \(literal)")
            if expected != nil { compared += 1 }
        }
        #expect(compared > 500, "too few valid strings to compare: \(compared)")
    }

    @Test(arguments: numberTokens) func numbersReadAsJSONSerializationReadsThem(token: String) throws {
        let literal = Array("[\(token)]".utf8)
        let expected = Self.serializationNumbers(literal)
        var scanned: [Double]?
        literal.withUnsafeBufferPointer { bytes in
            var scanner = JSONScanner(bytes)
            var values: [Double] = []
            do throws(JSONScanner.Failure) {
                try scanner.readArray { (scanner: inout JSONScanner) throws(JSONScanner.Failure) in values.append(try scanner.readDouble()) }
                try scanner.expectEnd()
                scanned = values
            } catch {
                scanned = nil
            }
        }
        #expect(scanned == expected, "\(token)")
    }

    @Test func wholeNumbersReadExactlyAcrossInt64() throws {
        var random = SplitMix64(seed: 64)
        let bounds: [Int64] = [0, 1, -1, 1 << 24 - 1, 1 << 24, 1 << 24 + 1, 1 << 53 - 1, 1 << 53 + 1, .max, .min]
        for value in bounds + (0..<2_000).map({ _ in Int64.random(in: .min ... .max, using: &random) }) {
            let literal = Array("[\(value)]".utf8)
            let expected = try #require(Self.serializationObject(literal) as? [NSNumber]).first?.int64Value
            let scanned = literal.withUnsafeBufferPointer { bytes -> Int64? in
                var scanner = JSONScanner(bytes)
                var read: Int64?
                try? scanner.readArray { (scanner: inout JSONScanner) throws(JSONScanner.Failure) in read = try scanner.readInt() }
                return read
            }
            #expect(scanned == value && expected == value, "\(value)")
        }
    }

    @Test func escapedAndPlainKeysReadAsJSONSerializationReadsThem() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            var key: [UInt8] = []
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                key += Self.stringPieces.randomElement(using: &random)!
            }
            let literal = Array("{\"".utf8) + key + Array("\":1}".utf8)
            let expected = (Self.serializationObject(literal) as? [String: Any]).map { Array($0.keys) }
            let scanned = literal.withUnsafeBufferPointer { bytes -> [String]? in
                var scanner = JSONScanner(bytes)
                var keys: [String] = []
                do throws(JSONScanner.Failure) {
                    try scanner.readObjectKeys { (scanner: inout JSONScanner, key: JSONKey) throws(JSONScanner.Failure) in
                        keys.append(key.string)
                        try scanner.skipValue()
                    }
                    try scanner.expectEnd()
                    return keys
                } catch {
                    return nil
                }
            }
            #expect(scanned == expected, "\(literal)")
        }
    }

    private static func serializationObject(_ literal: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(literal))
    }

    private static func serializationStrings(_ literal: [UInt8]) -> [String]? {
        serializationObject(literal) as? [String]
    }

    private static func serializationNumbers(_ literal: [UInt8]) -> [Double]? {
        (serializationObject(literal) as? [NSNumber])?.map(\.doubleValue)
    }

    private static func scannedStrings(_ literal: [UInt8]) -> [String]? {
        literal.withUnsafeBufferPointer { bytes in
            var scanner = JSONScanner(bytes)
            var strings: [String] = []
            do throws(JSONScanner.Failure) {
                try scanner.readArray { (scanner: inout JSONScanner) throws(JSONScanner.Failure) in strings.append(try scanner.readString()) }
                try scanner.expectEnd()
                return strings
            } catch {
                return nil
            }
        }
    }
}
