import Foundation

/// The CRC-32 (IEEE) that guards each journal line, so a line altered on disk is noticed even when
/// it is still valid JSON. A line carries it as its first field: `{"crc":"1a2b3c4d",…}`, computed
/// over the line without that field (`{…}`). Lines written before checksums existed have none and
/// are read as before.
enum LineChecksum {
    private static let prefix = Array(#"{"crc":""#.utf8)
    /// `{"crc":"` + 8 hex digits + `",`.
    private static let fieldLength = prefix.count + 10

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = crc
        table.withUnsafeBufferPointer { table in
            for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc
    }

    /// The checksum of `{` followed by `rest`.
    private static func checksum(afterBrace rest: UnsafeRawBufferPointer) -> UInt32 {
        let brace: UInt8 = UInt8(ascii: "{")
        let start = withUnsafeBytes(of: brace) { update(0xFFFF_FFFF, $0) }
        return ~update(start, rest)
    }

    /// `object` (one encoded JSON object, `{…}`) with the checksum field put first.
    static func seal(_ object: Data) -> Data {
        let rest = object.dropFirst()
        let crc = rest.withUnsafeBytes { checksum(afterBrace: $0) }
        var line = Data(prefix)
        line.append(contentsOf: Array(hex(crc).utf8))
        line.append(contentsOf: Array(#"","#.utf8))
        line.append(rest)
        return line
    }

    /// What checking a line found.
    enum Verdict: Equatable {
        /// The checksum matches.
        case valid
        /// The line predates checksums.
        case unsealed
        /// The line was altered after it was written.
        case mismatch
    }

    /// Checks the checksum of `line` (without its newline).
    static func verify(_ line: Data) -> Verdict {
        line.withUnsafeBytes { bytes in
            guard bytes.count > fieldLength, bytes.starts(with: prefix) else { return .unsealed }
            guard bytes[fieldLength - 2] == UInt8(ascii: "\""), bytes[fieldLength - 1] == UInt8(ascii: ","),
                  let stored = UInt32(String(decoding: bytes[prefix.count..<(prefix.count + 8)], as: UTF8.self), radix: 16) else { return .mismatch }
            return checksum(afterBrace: UnsafeRawBufferPointer(rebasing: bytes[fieldLength...])) == stored ? .valid : .mismatch
        }
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
