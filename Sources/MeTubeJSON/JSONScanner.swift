import Foundation
import MeTubeJSON

/// The one hand-written JSON reader: a fast pull reader over UTF-8 bytes that decodes straight into
/// the caller's types without building an intermediate tree, several times faster than
/// `JSONDecoder`. The store's snapshot files, the hub's pages (MeTubeSync) and the mark-sync server's
/// request and record fast paths read through it.
///
/// It accepts exactly what `JSONSerialization` accepts (any key order, whitespace, escapes, JSON's
/// number grammar; valid UTF-8, surrogates only in pairs), which `JSONScannerDifferentialTests`
/// checks, and lets its caller skip unknown keys, so files written by a newer version with added
/// fields still read.
package struct JSONScanner: ~Copyable {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    /// Reads `bytes`, which must stay valid while the scanner is used.
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// A failure with the byte offset where it happened.
    package struct Failure: Error, CustomStringConvertible {
        package var offset: Int
        package var reason: String
        package var description: String { "\(reason) at byte \(offset)" }

        /// A failure at `offset` for `reason`.
        package init(offset: Int, reason: String) {
            self.offset = offset
            self.reason = reason
        }
    }

    /// A failure at the current offset, for readers that refuse a well-formed value.
    package func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func peek() throws(Failure) -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of data") }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        guard try peek() == byte else { throw fail("expected '\(Character(UnicodeScalar(byte)))'") }
        index += 1
    }

    /// The first byte of the value that comes next, which tells its kind; reads nothing.
    package mutating func nextByte() throws(Failure) -> UInt8 {
        try peek()
    }

    /// Whether the next value is `null`; consumes it if so.
    package mutating func consumeNull() throws(Failure) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
              memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0 else { throw fail("expected \(word)") }
        index += count
    }

    /// Reads an object, calling `field` with each key; `field` must read or skip the value.
    package mutating func readObject(_ field: (inout JSONScanner, String) throws(Failure) -> Void) throws(Failure) {
        try readObjectKeys { (scanner: inout JSONScanner, key: JSONKey) throws(Failure) in try field(&scanner, key.string) }
    }

    /// Reads an object, calling `field` with each key as it stands in the bytes, so a reader that
    /// knows its keys compares them without making strings; `field` must read or skip the value.
    package mutating func readObjectKeys(_ field: (inout JSONScanner, JSONKey) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "{"))
        if try peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            let key = try readKey()
            try expect(UInt8(ascii: ":"))
            try field(&self, key)
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { index -= 1; throw fail("expected ',' or '}'") }
        }
    }

    private mutating func readKey() throws(Failure) -> JSONKey {
        try expect(UInt8(ascii: "\""))
        let start = index
        let run = try scanToQuoteOrEscape()
        if run.isEscaped { return .unescaped(try readEscapedString(from: start)) }
        guard run.isASCII || String(validating: run.bytes, as: UTF8.self) != nil else { throw fail("invalid UTF-8 in string") }
        return .plain(run.bytes)
    }

    /// Reads a string's bytes from after its opening quote: up to and past its closing quote, or
    /// up to (not past) its first backslash, which `isEscaped` tells; `isASCII` says whether the
    /// bytes read hold only ASCII.
    private mutating func scanToQuoteOrEscape() throws(Failure) -> (bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool, isEscaped: Bool) {
        let start = index
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return (UnsafeBufferPointer(rebasing: bytes[start..<index]), isASCII, false)
            }
            if byte == UInt8(ascii: "\\") { return (UnsafeBufferPointer(rebasing: bytes[start..<index]), isASCII, true) }
            if byte < 0x20 { throw fail("control character in string") }
            if byte >= 0x80 { isASCII = false }
            index += 1
        }
        throw fail("unterminated string")
    }

    /// Reads an array, calling `element` for each item; `element` must read the value.
    package mutating func readArray(_ element: (inout JSONScanner) throws(Failure) -> Void) throws(Failure) {
        try expect(UInt8(ascii: "["))
        if try peek() == UInt8(ascii: "]") { index += 1; return }
        while true {
            try element(&self)
            let next = try peek()
            index += 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { index -= 1; throw fail("expected ',' or ']'") }
        }
    }

    /// Reads a string: valid UTF-8 without control characters, with JSON's escapes, a `\u`
    /// surrogate only as half of a pair (as `JSONSerialization` reads them).
    package mutating func readString() throws(Failure) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        let run = try scanToQuoteOrEscape()
        if run.isEscaped { return try readEscapedString(from: start) }
        return try text(run.bytes, isASCII: run.isASCII)
    }

    /// The string `utf8` holds; a failure when it is not valid UTF-8.
    private func text(_ utf8: UnsafeBufferPointer<UInt8>, isASCII: Bool) throws(Failure) -> String {
        if isASCII { return String(decoding: utf8, as: UTF8.self) }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw fail("invalid UTF-8 in string") }
        return text
    }

    /// Checks the string that comes next as ``readString()`` would read it, without building it,
    /// and returns the byte range of its literal, quotes included.
    package mutating func stringRange() throws(Failure) -> Range<Int> {
        try expect(UInt8(ascii: "\""))
        let start = index - 1
        var isASCII = true
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                if !isASCII { _ = try text(UnsafeBufferPointer(rebasing: bytes[start + 1..<index - 1]), isASCII: false) }
                return start..<index
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw fail("unterminated string") }
                let escape = bytes[index]
                index += 1
                if escape == UInt8(ascii: "u") {
                    _ = try readUnicodeEscape()
                } else if JSONEscape.byte(escapedBy: escape) == nil {
                    throw fail("bad escape")
                }
            default:
                if byte < 0x20 { throw fail("control character in string") }
                if byte >= 0x80 { isASCII = false }
            }
        }
        throw fail("unterminated string")
    }

    /// How many bytes have been read.
    package var offset: Int { index }

    private mutating func readEscapedString(from start: Int) throws(Failure) -> String {
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw fail("invalid UTF-8 in string") }
                return text
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                if escape == UInt8(ascii: "u") {
                    utf8.append(contentsOf: try readUnicodeEscape())
                } else if let simple = JSONEscape.byte(escapedBy: escape) {
                    utf8.append(simple)
                } else {
                    throw fail("bad escape")
                }
            default:
                if byte < 0x20 { throw fail("control character in string") }
                utf8.append(byte)
            }
        }
        throw fail("unterminated string")
    }

    private mutating func readHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The UTF-8 of the scalar a `\u` escape stands for (the `\u` already read), reading the
    /// second escape of a surrogate pair; a lone surrogate fails.
    private mutating func readUnicodeEscape() throws(Failure) -> [UInt8] {
        var code = try readHex4()
        if (0xDC00...0xDFFF).contains(code) { throw fail("lone low surrogate in \\u escape") }
        if (0xD800...0xDBFF).contains(code) {
            guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail("lone high surrogate in \\u escape")
            }
            index += 2
            let low = try readHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("high surrogate without its low half") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw fail("bad \\u escape") }
        return Array(String(Character(scalar)).utf8)
    }

    /// Reads a number as a `Double`: any JSON number, rounded to the nearest `Double` as
    /// `JSONDecoder` does.
    package mutating func readDouble() throws(Failure) -> Double {
        let token = try numberToken()
        if case let .exact(integer) = Self.parseInteger(token) { return Double(integer) }
        guard let value = Double(String(decoding: token, as: UTF8.self)), value.isFinite else {
            throw fail("bad number")
        }
        return value
    }

    /// Reads a whole number in `Int64`'s full range, exactly.
    package mutating func readInt() throws(Failure) -> Int64 {
        let token = try numberToken()
        switch Self.parseInteger(token) {
        case let .exact(integer): return integer
        case .overflow: throw fail("whole number outside the 64-bit range")
        case .notInteger:
            guard let value = Double(String(decoding: token, as: UTF8.self)), value.rounded() == value,
                  value >= -0x1p63, value < 0x1p63 else { throw fail("expected a whole number") }
            return Int64(value)
        }
    }

    /// Reads a whole number written as one, without a fraction or exponent, in `Int64`'s range and
    /// not `-0`; anything else fails, for the readers that leave other numbers to `JSONDecoder`.
    package mutating func readPlainInteger() throws(Failure) -> Int64 {
        let token = try numberToken()
        guard case let .exact(integer) = Self.parseInteger(token), integer != 0 || token[0] != UInt8(ascii: "-") else {
            throw fail("expected a plain whole number")
        }
        return integer
    }

    /// The bytes of a number in JSON's grammar: `-`, then `0` or digits not starting with `0`,
    /// then an optional fraction and exponent.
    private mutating func numberToken() throws(Failure) -> UnsafeBufferPointer<UInt8> {
        skipWhitespace()
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerDigits = skipDigits()
        guard integerDigits > 0 else { throw fail("expected a number") }
        if integerDigits > 1, bytes[index - integerDigits] == UInt8(ascii: "0") { throw fail("leading zero in number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() > 0 else { throw fail("expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw fail("expected digits in exponent") }
        }
        return UnsafeBufferPointer(rebasing: bytes[start..<index])
    }

    /// Skips decimal digits and says how many there were.
    private mutating func skipDigits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private enum IntegerParse {
        case exact(Int64)
        case overflow
        case notInteger
    }

    /// Parses an optional minus and decimal digits exactly; accumulates negatively so `Int64.min`
    /// fits.
    private static func parseInteger(_ digits: UnsafeBufferPointer<UInt8>) -> IntegerParse {
        var value: Int64 = 0
        var negative = false
        var sawDigit = false
        var overflowed = false
        for (offset, byte) in digits.enumerated() {
            if offset == 0, byte == UInt8(ascii: "-") { negative = true; continue }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .notInteger }
            sawDigit = true
            let (scaled, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = scaled.subtractingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            overflowed = overflowed || o1 || o2
            value = next
        }
        guard sawDigit else { return .notInteger }
        if overflowed { return .overflow }
        if negative { return .exact(value) }
        return value == .min ? .overflow : .exact(-value)
    }

    /// Reads `true` or `false`.
    package mutating func readBool() throws(Failure) -> Bool {
        if try peek() == UInt8(ascii: "t") { try literal("true"); return true }
        try literal("false")
        return false
    }

    /// Skips any value.
    package mutating func skipValue() throws(Failure) {
        switch try peek() {
        case UInt8(ascii: "{"): try readObject { (scanner: inout JSONScanner, _: String) throws(Failure) in try scanner.skipValue() }
        case UInt8(ascii: "["): try readArray { (scanner: inout JSONScanner) throws(Failure) in try scanner.skipValue() }
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try numberToken()
        }
    }

    /// Skips any value and returns the byte range it occupied.
    package mutating func skipValueRange() throws(Failure) -> Range<Int> {
        skipWhitespace()
        let start = index
        try skipValue()
        return start..<index
    }

    /// Reads one value with `read`; when `read` fails on a well-formed value (a number out of
    /// range, an unknown word), skips that value and returns the failure instead of throwing, so
    /// the caller can use a default and keep the rest. Malformed JSON still throws.
    package mutating func lenient<T>(_ read: (inout JSONScanner) throws(Failure) -> T) throws(Failure) -> Result<T, Failure> {
        skipWhitespace()
        let start = index
        do throws(Failure) {
            return .success(try read(&self))
        } catch {
            index = start
            try skipValue()
            return .failure(error)
        }
    }

    /// Fails unless only whitespace is left.
    package mutating func expectEnd() throws(Failure) {
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected data after the end") }
    }
}

/// An object's key as ``JSONScanner/readObjectKeys(_:)`` found it: the bytes between its quotes
/// when they hold no escape (valid only during the call), or the string the escapes stand for.
package enum JSONKey {
    /// A key without escapes: its UTF-8 bytes, already checked.
    case plain(UnsafeBufferPointer<UInt8>)
    /// A key with escapes: the string it stands for.
    case unescaped(String)

    /// Whether the key is `word`.
    package func `is`(_ word: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        switch self {
        case .plain(let bytes): return bytes.count == expected.count && (bytes.isEmpty || memcmp(expected.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        case .unescaped(let text): return text.utf8.elementsEqual(expected)
        }
    }

    /// The key as a string.
    package var string: String {
        switch self {
        case .plain(let bytes): String(decoding: bytes, as: UTF8.self)
        case .unescaped(let text): text
        }
    }
}
