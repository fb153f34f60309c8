import Foundation

/// The CRC-32 (IEEE) that guards each journal line, so a line altered on disk is noticed even when
/// it is still valid JSON. A line carries it as its first field: `{"crc":"1a2b3c4d",…}`, computed
/// over the line without that field (`{…}`). Lines written before checksums existed have none and
/// are read as before.
enum LineChecksum {
    private static let prefix = Array(#"{"crc":""#.utf8)
    /// `{"crc":"` + 8 hex digits + `",`.
    private static let fieldLength = prefix.count + 10

    /// Eight tables of 256 entries for slicing-by-8: table 0 is the usual byte-at-a-time table,
    /// table k advances a byte's remainder k more bytes (sync journal lines run to megabytes).
    private static let tables: [UInt32] = {
        var tables = (0..<256).map { index in
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            return value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables.append((previous >> 8) ^ tables[Int(previous & 0xFF)])
            }
        }
        return tables
    }()

    private static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = crc
        var index = 0
        tables.withUnsafeBufferPointer { table in
            while index + 8 <= bytes.count {
                let low = crc ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24)
                let high = UInt32(bytes[index + 4]) | UInt32(bytes[index + 5]) << 8 | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 24
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < bytes.count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
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
        var line = Data(opening(of: object))
        line.append(object.dropFirst())
        return line
    }

    /// What replaces the opening brace of `object` (one encoded JSON object, `{…}`) in its sealed
    /// line: `{"crc":"…",`. Writing this and then the object without its brace writes the line
    /// ``seal(_:)`` makes, without copying a large object (a sync's line runs to megabytes).
    static func opening(of object: Data) -> [UInt8] {
        let crc = object.dropFirst().withUnsafeBytes { checksum(afterBrace: $0) }
        return prefix + Array(hex(crc).utf8) + Array(#"","#.utf8)
    }

    /// Where byte `offset` (at least 1: the brace is replaced) of an object lands in its sealed line.
    static func sealedOffset(ofObjectOffset offset: Int) -> Int { offset - 1 + fieldLength }

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
