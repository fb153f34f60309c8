import Foundation
import MeTubeCore
import MeTubeJSON
import Testing

/// ``JSONWriter`` streams a document through a bounded buffer: the pieces make up what
/// `JSONEncoder` writes (sorted keys, no `\/`) wherever the buffer is cut, a `Double` JSON cannot
/// hold is written as one it can, and the output's first failure is the one thrown.
@Suite struct JSONWriterTests {
    private struct Record: Encodable {
        var channels: [String]
        var count: Int64
        var live: Bool
        var note: String?
        var title: String
    }

    private struct OutputFailure: Error, Equatable {
        var piece: Int
    }

    /// `record` written field by field in sorted key order through a buffer of `bufferSize`
    /// bytes, with the sizes of the pieces the output was handed.
    private func written(_ record: Record, bufferSize: Int) throws(OutputFailure) -> (bytes: [UInt8], pieces: [Int]) {
        var bytes: [UInt8] = []
        var pieces: [Int] = []
        var writer = JSONWriter<OutputFailure>(bufferSize: bufferSize) { piece in
            bytes += piece
            pieces.append(piece.count)
            return nil
        }
        writer.object {
            $0.field("channels", record.channels)
            $0.field("count", record.count)
            $0.field("live", record.live)
            $0.field("note", record.note)
            $0.field("title", record.title)
        }
        try writer.finish()
        #expect(writer.offset == bytes.count)
        return (bytes, pieces)
    }

    @Test func theDocumentIsWhatJSONEncoderWritesWhereverTheBufferIsCut() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var random = SplitMix64(seed: 38)
        let alphabet = Array("\"\\/\n\r\t\u{1}\u{1F}aZ é€𝄞🚀")
        func text() -> String { String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }) }
        for round in 0..<40 {
            // Given a record full of escapes, multi-byte characters and a field left out
            let record = Record(
                channels: (0..<Int.random(in: 0...3, using: &random)).map { _ in text() },
                count: Int64.random(in: .min ... .max, using: &random), live: round.isMultiple(of: 2),
                note: round.isMultiple(of: 3) ? nil : text(), title: text())
            let expected = Array(try encoder.encode(record))
            // When it is written through every buffer size up to past the whole document
            for bufferSize in 1...(expected.count + 1) {
                let (bytes, pieces) = try written(record, bufferSize: bufferSize)
                // Then the pieces, each no longer than the buffer, make up JSONEncoder's bytes
                #expect(bytes == expected, "round \(round), buffer \(bufferSize)")
                #expect(pieces.allSatisfy { $0 <= bufferSize })
            }
        }
    }

    @Test(arguments: [
        (Double.nan, 0), (.infinity, .greatestFiniteMagnitude), (-.infinity, -.greatestFiniteMagnitude),
        (3, 3), (-0.5, -0.5), (1e15, 1e15), (1.0e-300, 1.0e-300), (0.1 + 0.2, 0.1 + 0.2),
    ] as [(Double, Double)])
    func aDoubleIsWrittenAsANumberThatReadsBack(value: Double, readBack: Double) throws {
        var bytes: [UInt8] = []
        var writer = JSONWriter<OutputFailure> { piece in
            bytes += piece
            return nil
        }
        writer.object { $0.field("value", value) }
        try writer.finish()
        #expect(try JSONDecoder().decode([String: Double].self, from: Data(bytes)) == ["value": readBack], "\(String(decoding: bytes, as: UTF8.self))")
    }

    @Test func theOutputsFirstFailureIsThrownAndNothingIsHandedOnAfterIt() {
        // Given an output that fails on its second piece
        var handed = 0
        var writer = JSONWriter<OutputFailure>(bufferSize: 4) { _ in
            handed += 1
            return handed >= 2 ? OutputFailure(piece: handed) : nil
        }
        // When a document of many pieces is written, and the caller records a failure of its own later
        writer.array(0..<20) { writer, index in writer.stringValue("value \(index)") }
        writer.fail(OutputFailure(piece: 99))
        // Then finishing throws the output's failure, the output was not called after it, and
        // the offset still counts every byte written
        #expect(throws: OutputFailure(piece: 2)) { try writer.finish() }
        #expect(handed == 2)
        #expect(writer.offset == Array("[\((0..<20).map { "\"value \($0)\"" }.joined(separator: ","))]".utf8).count)
    }
}
