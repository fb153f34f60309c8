import Foundation
import MeTubeCore

/// Finds what `XMLParser` must not be given: on Linux it crashes (swift-corelibs-foundation reads
/// a null pointer, or unwraps a name it could not decode) on a processing instruction without
/// data (`<?x?>`), on some declarations inside a document type (`<!ATTLIST`, `<!NOTATION`), and
/// on UTF-8 that is not valid. Every document handed to `XMLParser` is checked here first.
enum XMLParserGuard {
    /// Which document type declarations a kind of document may carry.
    enum DocumentTypes {
        /// None: the documents never have one (YouTube's feeds).
        case refused
        /// `<!DOCTYPE name …>` without declarations inside it (`[…]`).
        case withoutDeclarations
    }

    /// Where `data` holds what `XMLParser` must not be given (line and column, from 1), and why;
    /// nil when it may be parsed. Anything that could be an instruction without data is refused,
    /// and invalid UTF-8 unless another encoding is declared.
    static func unsafeSpot(in data: Data, documentTypes: DocumentTypes) -> (line: Int, column: Int, reason: String)? {
        let bytes = Array(data)
        func spot(_ offset: Int, _ reason: String) -> (line: Int, column: Int, reason: String) {
            let lineStart = bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            return (bytes[..<offset].count { $0 == 0x0A } + 1, offset - lineStart + 1, reason)
        }
        if declaresUTF8(bytes), let offset = firstInvalidUTF8(bytes) {
            return spot(offset, "the document is not valid UTF-8")
        }
        var index = 0
        while let start = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = start + 1
            if bytes[index...].starts(with: "!DOCTYPE".utf8) {
                switch documentTypes {
                case .refused: return spot(start, "a document type declaration is not accepted")
                case .withoutDeclarations:
                    if hasDeclarations(bytes, documentTypeAt: index) {
                        return spot(start, "a document type with declarations inside ([…]) is not accepted")
                    }
                }
            }
            guard bytes[index...].first == UInt8(ascii: "?") else { continue }
            // Up to the next `<` at most, so the scans stay linear in all.
            let target = bytes[(index + 1)...].prefix { ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?"), UInt8(ascii: "<"), UInt8(ascii: ">")].contains($0) }
            if !target.isEmpty, bytes[target.endIndex...].starts(with: "?>".utf8) {
                return spot(start, "a processing instruction without data is not accepted")
            }
        }
        return nil
    }

    /// Whether the document type declaration starting at `start` opens an internal subset (`[`)
    /// before it ends; quoted identifiers are skipped, and one that is never closed counts as one.
    private static func hasDeclarations(_ bytes: [UInt8], documentTypeAt start: Int) -> Bool {
        var quote: UInt8?
        for byte in bytes[start...] {
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "["): return true
            case UInt8(ascii: ">"): return false
            default: continue
            }
        }
        return true
    }

    /// Where the first byte that is not part of valid UTF-8 is in `bytes`, if anywhere.
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Whether the document in `bytes` is UTF-8 by its declaration: it names UTF-8, or no
    /// encoding (XML's default).
    private static func declaresUTF8(_ bytes: [UInt8]) -> Bool {
        guard bytes.starts(with: "<?xml".utf8), let end = bytes.firstRange(of: "?>".utf8)?.lowerBound else { return true }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        guard let range = declaration.range(of: "encoding") else { return true }
        let value = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" || $0 == "\t" || $0 == "\n" }
        return value.hasPrefix("utf-8") || value.hasPrefix("utf8")
    }
}
