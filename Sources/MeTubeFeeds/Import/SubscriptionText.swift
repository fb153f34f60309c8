import Foundation
import MeTubeCore

/// The contents of a subscription file as text: byte-order mark removed, split into lines.
struct SubscriptionText {
    /// The whole text, without a byte-order mark.
    let content: String
    /// The lines of `content`, split at LF, CRLF or CR, without their terminators.
    let lines: [Substring]

    /// Decodes `data` as UTF-8 (or UTF-16 with a byte-order mark), rejecting empty and binary input.
    init(decoding data: Data) throws(MeTubeCoreError) {
        guard !data.isEmpty else { throw .unrecognizedFormat(hint: "the input is empty") }
        let bytes = [UInt8](data)
        let decoded: String? =
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                String(validating: bytes.dropFirst(3), as: UTF8.self)
            } else if bytes.starts(with: [0xFF, 0xFE]) {
                String(data: data.dropFirst(2), encoding: .utf16LittleEndian)
            } else if bytes.starts(with: [0xFE, 0xFF]) {
                String(data: data.dropFirst(2), encoding: .utf16BigEndian)
            } else {
                bytes.contains(0) ? nil : String(validating: bytes, as: UTF8.self)
            }
        guard let decoded, !decoded.contains("\u{0}") else {
            throw .unrecognizedFormat(hint: Self.describeBinary(bytes))
        }
        guard decoded.contains(where: { !$0.isWhitespace }) else {
            throw .unrecognizedFormat(hint: "the input contains only whitespace")
        }
        content = decoded
        lines = decoded.split(omittingEmptySubsequences: false, whereSeparator: Self.isLineBreak)
    }

    /// Whether `character` ends a line: LF, CRLF or CR (other Unicode breaks stay inside lines).
    static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r\n" || character == "\r"
    }

    /// The number of line breaks in `text`.
    static func lineBreakCount(in text: Substring) -> Int {
        text.reduce(0) { count, character in isLineBreak(character) ? count + 1 : count }
    }

    /// The lines that hold something other than whitespace, with their 1-based line numbers.
    var nonBlankLines: [(number: Int, text: Substring)] {
        lines.enumerated().compactMap { index, line in
            line.contains(where: { !$0.isWhitespace }) ? (index + 1, line) : nil
        }
    }

    /// The line and column of a UTF-8 byte offset, both 1-based, the column counted in Unicode scalars as libxml2 counts.
    func position(ofUTF8Offset offset: Int) -> (line: Int, column: Int) {
        let utf8 = content.utf8
        let target = utf8.index(utf8.startIndex, offsetBy: min(max(offset, 0), utf8.count))
        let before = content[..<target]
        let lineStart = before.lastIndex(where: Self.isLineBreak).map(before.index(after:)) ?? before.startIndex
        return (Self.lineBreakCount(in: before) + 1, before[lineStart...].unicodeScalars.count + 1)
    }

    /// Up to 80 Unicode scalars of line `line` around column `column` (both 1-based), for a message.
    func excerpt(line: Int, column: Int) -> Substring {
        guard lines.indices.contains(line - 1) else { return "" }
        let scalars = lines[line - 1].unicodeScalars
        let start = scalars.index(scalars.startIndex, offsetBy: max(column - 41, 0), limitedBy: scalars.endIndex) ?? scalars.endIndex
        return Substring(scalars[start...].prefix(80))
    }

    /// The length of line `line` (1-based) in Unicode scalars; 0 past the end.
    func scalarCount(ofLine line: Int) -> Int {
        lines.indices.contains(line - 1) ? lines[line - 1].unicodeScalars.count : 0
    }

    /// A hint naming binary input: a known archive kind, else its first bytes in hex.
    private static func describeBinary(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            return "a ZIP archive; unpack it and import the subscriptions file inside"
        }
        if bytes.starts(with: [0x1F, 0x8B]) {
            return "a gzip archive; unpack it and import the subscriptions file inside"
        }
        let hex = bytes.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
        return "binary data, not UTF-8 text (it starts with bytes \(hex))"
    }
}
