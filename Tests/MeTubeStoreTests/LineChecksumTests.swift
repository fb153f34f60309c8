import Foundation
@testable import MeTubeStore
import Testing
import TestSupport

/// The journal's line checksum is the standard CRC-32 (IEEE) of the line without its checksum field.
@Suite struct LineChecksumTests {
    /// CRC-32 one bit at a time, straight from its definition.
    private func reference(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The checksum `seal` put into the line for `object`, and the line without it.
    private func sealed(_ object: [UInt8]) throws -> (UInt32, [UInt8]) {
        let line = Array(LineChecksum.seal(Data(object)))
        let prefix = Array(#"{"crc":""#.utf8)
        try #require(line.starts(with: prefix))
        let crc = try #require(UInt32(String(decoding: line[prefix.count..<(prefix.count + 8)], as: UTF8.self), radix: 16))
        return (crc, [UInt8(ascii: "{")] + line[(prefix.count + 10)...])
    }

    @Test func theChecksumIsCRC32OfTheObjectForEveryLengthAndAlignment() throws {
        #expect(reference(Array("123456789".utf8)) == 0xCBF4_3926)
        var random = SystemRandomNumberGenerator()
        for length in Array(1...80) + [1_000, 65_537] {
            let object = [UInt8(ascii: "{")] + (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let (crc, rest) = try sealed(object)
            #expect(rest == object)
            #expect(crc == reference(object), "length \(length)")
            #expect(LineChecksum.verify(LineChecksum.seal(Data(object))) == .valid)
        }
    }

    /// The journal writes a line in pieces (the checksum field, the object, the newline) instead
    /// of building it: what lands on disk is still exactly the sealed object and a newline.
    @Test func anAppendedLineIsTheSealedObjectWrittenInPieces() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let journal = Journal(directory: directory.url.path)
        var generator = StoredValueGenerator(seed: 0x6C69_6E65)
        var expected = Data()
        for _ in 0..<20 {
            let change = generator.change()
            let appended = try journal.append(change, generation: 0)
            expected += LineChecksum.seal(try SnapshotEncoding.change(change).object) + [0x0A]
            #expect(appended.end == expected.count)
        }
        let written = try Data(contentsOf: URL(fileURLWithPath: journal.path(0)))
        #expect(written == expected)
        for line in written.split(separator: 0x0A) { #expect(LineChecksum.verify(Data(line)) == .valid) }
    }
}
