import Foundation
import MeTubeCore

/// Reads the plain XML YouTube writes its Atom documents in, straight from the bytes: several
/// times faster than `XMLParser`, whose callbacks, strings and attribute dictionaries were most of
/// the CPU of a 2,000-feed direct sync (see docs/fast-paths.md).
///
/// It reads a strict subset of well-formed XML: UTF-8 without carriage returns or other control
/// characters; an optional declaration (version 1.0, encoding UTF-8); elements whose names are
/// ASCII; attributes without a prefix, and namespace declarations of the four namespaces YouTube
/// uses; the five predefined entities and character references; comments, processing
/// instructions and CDATA sections. It checks every rule of well-formedness it meets (one root,
/// matching end tags, unique attributes, bound prefixes, no `]]>` in text, no `--` in comments …)
/// and gives up on everything else (a document type, another namespace or encoding, a mismatched
/// tag …), leaving the document to `XMLParser`, which reads it or says why not. What it reads it
/// hands to the same ``AtomFeedBuilder``, in the same order and pieces of text, so a document
/// means the same whichever of the two read it.
struct AtomScanner {
    /// A start tag's attribute: where its name and value are in the document.
    private struct Attribute {
        var name: Range<Int>
        var value: Range<Int>
        var hasReferences: Bool
    }

    /// An element not yet ended: where its name is, and how many namespace bindings it declared.
    private struct OpenElement {
        var name: Range<Int>
        var bindings: Int
    }

    /// A namespace prefix (`nil` for the default namespace) and the URI it is bound to (`nil`
    /// for none).
    private struct Binding {
        var prefix: Range<Int>?
        var uri: String?
    }

    /// `XMLParser` (libxml2) refuses documents nested deeper than 256 elements.
    private static let maxDepth = 200
    private static let maxNameLength = 1_000
    private static let maxAttributes = 64
    /// Namespace bindings in scope at once (each element's prefix is looked up among them).
    private static let maxBindings = 64
    private static let namespaces = [AtomNamespace.atom, AtomNamespace.youtube, AtomNamespace.media, AtomNamespace.tombstones]

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var builder = AtomFeedBuilder()
    private var open: [OpenElement] = []
    private var bindings: [Binding] = []
    private var attributes: [Attribute] = []
    /// Text read since the last tag, handed to the builder at the next one.
    private var text: [UInt8] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The feed `data` describes; nil when the document is outside the subset read here (then
    /// `XMLParser` must read it), or when its root is not an Atom `<feed>`.
    static func feed(_ data: Data) -> AtomFeed? {
        data.withUnsafeBytes { raw in
            var scanner = AtomScanner(bytes: raw.bindMemory(to: UInt8.self))
            return scanner.read()
        }
    }

    private mutating func read() -> AtomFeed? {
        guard Self.isPlainText(bytes) else { return nil }
        if starts(with: "<?xml"), position + 5 < bytes.count, Self.isSpace(bytes[position + 5]) {
            guard readDeclaration() else { return nil }
        }
        guard skipMisc(), position + 1 < bytes.count, bytes[position] == UInt8(ascii: "<"), Self.isNameStart(bytes[position + 1]),
              readElements(), skipMisc(), position == bytes.count, builder.rootIsAtomFeed
        else { return nil }
        return builder.feed()
    }

    /// Whether `bytes` is valid UTF-8 of characters XML allows, with no control character but
    /// tab and line feed (a carriage return would need XML's line-end normalization).
    private static func isPlainText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isContinuation(_ index: Int) -> Bool { index < bytes.count && bytes[index] & 0xC0 == 0x80 }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard byte >= 0x20 || byte == 0x09 || byte == 0x0A else { return false }
                index += 1
            } else if byte < 0xC2 {
                return false
            } else if byte < 0xE0 {
                guard isContinuation(index + 1) else { return false }
                index += 2
            } else if byte < 0xF0 {
                guard isContinuation(index + 1), isContinuation(index + 2) else { return false }
                let second = bytes[index + 1]
                // Overlong forms, surrogates, and U+FFFE / U+FFFF (not XML characters).
                guard !(byte == 0xE0 && second < 0xA0), !(byte == 0xED && second >= 0xA0),
                      !(byte == 0xEF && second == 0xBF && bytes[index + 2] >= 0xBE) else { return false }
                index += 3
            } else if byte < 0xF5 {
                guard isContinuation(index + 1), isContinuation(index + 2), isContinuation(index + 3) else { return false }
                let second = bytes[index + 1]
                guard !(byte == 0xF0 && second < 0x90), !(byte == 0xF4 && second >= 0x90) else { return false }
                index += 4
            } else {
                return false
            }
        }
        return true
    }

    // MARK: Prolog and epilog

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`, encoding and standalone optional.
    private mutating func readDeclaration() -> Bool {
        position += 5
        guard skipSpace(), consume("version"), skipEquals(), let version = quoted(), equals(version, "1.0") else { return false }
        var spaced = skipSpace()
        if spaced, consume("encoding") {
            guard skipEquals(), let encoding = quoted(), equals(encoding, "utf-8", ignoringCase: true) else { return false }
            spaced = skipSpace()
        }
        if spaced, consume("standalone") {
            guard skipEquals(), let value = quoted(), equals(value, "yes") || equals(value, "no") else { return false }
            skipSpace()
        }
        return consume("?>")
    }

    /// Skips white space, comments and processing instructions (before and after the root).
    private mutating func skipMisc() -> Bool {
        while true {
            skipSpace()
            if starts(with: "<!--") {
                guard skipComment() else { return false }
            } else if starts(with: "<?") {
                guard skipProcessingInstruction() else { return false }
            } else {
                return true
            }
        }
    }

    // MARK: Elements

    /// Reads the root element and everything in it.
    private mutating func readElements() -> Bool {
        guard readStartTag() else { return false }
        while !open.isEmpty {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "<"):
                guard position + 1 < bytes.count else { return false }
                switch bytes[position + 1] {
                case UInt8(ascii: "/"):
                    guard readEndTag() else { return false }
                case UInt8(ascii: "!"):
                    if starts(with: "<!--") {
                        guard skipComment() else { return false }
                    } else if starts(with: "<![CDATA[") {
                        guard readCDATA() else { return false }
                    } else {
                        return false
                    }
                case UInt8(ascii: "?"):
                    guard skipProcessingInstruction() else { return false }
                default:
                    guard readStartTag() else { return false }
                }
            case UInt8(ascii: "&"):
                guard let end = Self.decodeReference(bytes, at: position, into: &text) else { return false }
                position = end
            default:
                guard readCharacters() else { return false }
            }
        }
        return true
    }

    private mutating func readStartTag() -> Bool {
        position += 1
        guard let name = readName() else { return false }
        attributes.removeAll(keepingCapacity: true)
        var isEmpty = false
        while true {
            let spaced = skipSpace()
            guard position < bytes.count else { return false }
            if bytes[position] == UInt8(ascii: ">") {
                position += 1
                break
            }
            if bytes[position] == UInt8(ascii: "/") {
                guard position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: ">") else { return false }
                position += 2
                isEmpty = true
                break
            }
            guard spaced, attributes.count < Self.maxAttributes, let attribute = readAttribute() else { return false }
            attributes.append(attribute)
        }
        for (index, attribute) in attributes.enumerated() {
            guard !attributes[(index + 1)...].contains(where: { same(attribute.name, $0.name) }) else { return false }
        }
        guard let declared = declareNamespaces(), let (uri, localName) = resolve(name) else { return false }
        flushText()
        let (bytes, attributes) = (bytes, attributes)
        builder.start(AtomFeedBuilder.key(uri, String(decoding: UnsafeBufferPointer(rebasing: bytes[localName]), as: UTF8.self))) { wanted in
            Self.value(of: wanted, in: attributes, bytes: bytes)
        }
        open.append(OpenElement(name: name, bindings: declared))
        guard open.count <= Self.maxDepth else { return false }
        if isEmpty { closeElement() }
        return true
    }

    /// `name="value"` (or with single quotes), white space allowed around `=`.
    private mutating func readAttribute() -> Attribute? {
        guard let name = readName(), skipEquals(), position < bytes.count else { return nil }
        let quote = bytes[position]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        position += 1
        let start = position
        var hasReferences = false
        while position < bytes.count, bytes[position] != quote {
            // `<` is not allowed; tab and line feed would need attribute-value normalization.
            switch bytes[position] {
            case UInt8(ascii: "<"), 0x09, 0x0A: return nil
            case UInt8(ascii: "&"):
                // Checked here, though decoded only when the value is asked for.
                var decoded: [UInt8] = []
                guard let end = Self.decodeReference(bytes, at: position, into: &decoded) else { return nil }
                hasReferences = true
                position = end
            default: position += 1
            }
        }
        guard position < bytes.count else { return nil }
        position += 1
        return Attribute(name: name, value: start..<(position - 1), hasReferences: hasReferences)
    }

    /// Binds the namespaces the current start tag declares; nil when it declares one not read
    /// here, or has another attribute with a prefix. Returns how many it declared.
    private mutating func declareNamespaces() -> Int? {
        var declared = 0
        for attribute in attributes {
            let name = attribute.name
            let isDefault = equals(name, "xmlns")
            guard isDefault || starts(name, with: "xmlns:") else {
                if bytes[name].contains(UInt8(ascii: ":")) { return nil }
                continue
            }
            guard bindings.count < Self.maxBindings, let value = Self.decodedValue(attribute, bytes: bytes) else { return nil }
            if isDefault, value.isEmpty {
                bindings.append(Binding(prefix: nil, uri: nil))
            } else {
                let prefix = isDefault ? nil : (name.lowerBound + 6)..<name.upperBound
                guard let uri = Self.namespaces.first(where: { $0.utf8.elementsEqual(value) }),
                      prefix.map({ !equals($0, "xml") && !equals($0, "xmlns") }) ?? true else { return nil }
                bindings.append(Binding(prefix: prefix, uri: uri))
            }
            declared += 1
        }
        return declared
    }

    /// The namespace URI and the local name of the element named `name`; nil when its prefix
    /// is not bound.
    private func resolve(_ name: Range<Int>) -> (String?, Range<Int>)? {
        guard let colon = bytes[name].firstIndex(of: UInt8(ascii: ":")) else {
            return (bindings.last { $0.prefix == nil }?.uri, name)
        }
        let prefix = name.lowerBound..<colon
        guard let binding = bindings.last(where: { $0.prefix.map { same($0, prefix) } ?? false }) else { return nil }
        return (binding.uri, (colon + 1)..<name.upperBound)
    }

    private mutating func readEndTag() -> Bool {
        position += 2
        guard let name = readName() else { return false }
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ">"), let element = open.last, same(element.name, name) else { return false }
        position += 1
        closeElement()
        return true
    }

    private mutating func closeElement() {
        flushText()
        builder.end()
        bindings.removeLast(open.removeLast().bindings)
    }

    /// A name: ASCII letters, digits, `_`, `-` and `.` (not first), with at most one `:` between
    /// two parts. Nil for anything else, a name going on in other characters included.
    private mutating func readName() -> Range<Int>? {
        let start = position
        var colon: Int?
        guard position < bytes.count, Self.isNameStart(bytes[position]) else { return nil }
        position += 1
        while position < bytes.count {
            let byte = bytes[position]
            if Self.isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") {
                position += 1
            } else if byte == UInt8(ascii: ":") {
                guard colon == nil, position + 1 < bytes.count, Self.isNameStart(bytes[position + 1]) else { return nil }
                colon = position
                position += 1
            } else {
                break
            }
        }
        guard position - start <= Self.maxNameLength, position == bytes.count || bytes[position] < 0x80 else { return nil }
        return start..<position
    }

    // MARK: Text

    /// Character data up to the next `<` or `&`; `]]>` may not appear in it.
    private mutating func readCharacters() -> Bool {
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { break }
            if byte == UInt8(ascii: ">"), position - start >= 2, bytes[position - 1] == UInt8(ascii: "]"), bytes[position - 2] == UInt8(ascii: "]") {
                return false
            }
            position += 1
        }
        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        return true
    }

    private mutating func readCDATA() -> Bool {
        position += 9
        let start = position
        while position + 2 < bytes.count {
            if bytes[position] == UInt8(ascii: "]"), bytes[position + 1] == UInt8(ascii: "]"), bytes[position + 2] == UInt8(ascii: ">") {
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
                position += 3
                return true
            }
            position += 1
        }
        return false
    }

    private mutating func flushText() {
        guard !text.isEmpty else { return }
        builder.characters(String(decoding: text, as: UTF8.self))
        text.removeAll(keepingCapacity: true)
    }

    /// `<!-- … -->`, with no `--` inside.
    private mutating func skipComment() -> Bool {
        position += 4
        while position + 1 < bytes.count {
            if bytes[position] == UInt8(ascii: "-"), bytes[position + 1] == UInt8(ascii: "-") {
                guard position + 2 < bytes.count, bytes[position + 2] == UInt8(ascii: ">") else { return false }
                position += 3
                return true
            }
            position += 1
        }
        return false
    }

    /// `<?target …?>`; the target may not begin with `xml` in any case (reserved: libxml2 warns
    /// of most such names, and `XMLParser` fails on a warning), nor hold a `:`.
    private mutating func skipProcessingInstruction() -> Bool {
        position += 2
        guard let target = readName(), !bytes[target].contains(UInt8(ascii: ":")),
              !equals(target.lowerBound..<min(target.upperBound, target.lowerBound + 3), "xml", ignoringCase: true) else { return false }
        if !consume("?>") {
            guard skipSpace() else { return false }
            while position + 1 < bytes.count, !(bytes[position] == UInt8(ascii: "?") && bytes[position + 1] == UInt8(ascii: ">")) { position += 1 }
            guard consume("?>") else { return false }
        }
        return true
    }

    // MARK: References and attribute values

    /// Decodes the reference at `start` (`&…;`) into `output`; returns the position after it, or nil
    /// when it is neither one of the five predefined entities nor a character reference to a
    /// character XML allows.
    private static func decodeReference(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, into output: inout [UInt8]) -> Int? {
        var end = start + 1
        while end < bytes.count, end - start <= 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { return nil }
        let name = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])
        var value: UInt32 = 0
        if name.elementsEqual("lt".utf8) {
            value = 0x3C
        } else if name.elementsEqual("gt".utf8) {
            value = 0x3E
        } else if name.elementsEqual("amp".utf8) {
            value = 0x26
        } else if name.elementsEqual("quot".utf8) {
            value = 0x22
        } else if name.elementsEqual("apos".utf8) {
            value = 0x27
        } else {
            guard name.count >= 2, name[0] == UInt8(ascii: "#") else { return nil }
            let isHex = name[1] == UInt8(ascii: "x")
            let digits = name.dropFirst(isHex ? 2 : 1)
            guard (1...8).contains(digits.count) else { return nil }
            for digit in digits {
                guard let number = hexDigit(digit), isHex || number < 10 else { return nil }
                value = value * (isHex ? 16 : 10) + number
            }
            guard value == 0x09 || value == 0x0A || value == 0x0D || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
                || (0x1_0000...0x10_FFFF).contains(value) else { return nil }
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        UTF8.encode(scalar) { output.append($0) }
        return end + 1
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The value of the attribute named `name` (without a prefix), references decoded.
    private static func value(of name: String, in attributes: [Attribute], bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let attribute = attributes.first(where: { name.utf8.elementsEqual(bytes[$0.name]) }),
              let value = decodedValue(attribute, bytes: bytes) else { return nil }
        return String(decoding: value, as: UTF8.self)
    }

    private static func decodedValue(_ attribute: Attribute, bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard attribute.hasReferences else { return Array(bytes[attribute.value]) }
        var value: [UInt8] = []
        var position = attribute.value.lowerBound
        while position < attribute.value.upperBound {
            if bytes[position] == UInt8(ascii: "&") {
                guard let end = decodeReference(bytes, at: position, into: &value), end <= attribute.value.upperBound else { return nil }
                position = end
            } else {
                value.append(bytes[position])
                position += 1
            }
        }
        return value
    }

    // MARK: Bytes

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = position
        while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
        return position > start
    }

    private mutating func skipEquals() -> Bool {
        skipSpace()
        guard consume("=") else { return false }
        skipSpace()
        return true
    }

    /// A quoted value of the declaration (no references in it).
    private mutating func quoted() -> Range<Int>? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[position]
        let start = position + 1
        guard let end = bytes[start...].firstIndex(of: quote) else { return nil }
        position = end + 1
        return start..<end
    }

    private func starts(with text: StaticString) -> Bool {
        starts(position..<bytes.count, with: text)
    }

    private func starts(_ range: Range<Int>, with text: StaticString) -> Bool {
        let prefix = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        return range.count >= prefix.count && bytes[range.lowerBound..<(range.lowerBound + prefix.count)].elementsEqual(prefix)
    }

    private mutating func consume(_ text: StaticString) -> Bool {
        guard starts(with: text) else { return false }
        position += text.utf8CodeUnitCount
        return true
    }

    private func equals(_ range: Range<Int>, _ text: StaticString, ignoringCase: Bool = false) -> Bool {
        let expected = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard range.count == expected.count else { return false }
        func lowercased(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte }
        return zip(bytes[range], expected).allSatisfy { ignoringCase ? lowercased($0) == lowercased($1) : $0 == $1 }
    }

    private func same(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        lhs.count == rhs.count && bytes[lhs].elementsEqual(bytes[rhs])
    }
}
