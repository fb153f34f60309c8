import Foundation
import MeTubeCore
import MeTubeJSON
import Testing

/// ``JSONNumber`` writes whole numbers for the hand-written writers: it must write what
/// `JSONEncoder` writes, byte for byte, at the edges of `Int64` and everywhere between.
@Suite struct JSONNumberTests {
    @Test(arguments: [Int64.min, Int64.min + 1, -10, -9, -1, 0, 1, 9, 10, 99, 100, 1_765_650_000_000, Int64.max - 1, Int64.max])
    func edgesAreWrittenAsJSONEncoderWritesThem(value: Int64) throws {
        var written: [UInt8] = []
        JSONNumber.write(value, to: &written)
        #expect(written == Array(try JSONEncoder().encode(value)))
    }

    @Test func randomNumbersOfEveryLengthReadBackAsThemselves() throws {
        var random = SplitMix64(seed: 5)
        for _ in 0..<5_000 {
            let value = Int64.random(in: Int64.min...Int64.max, using: &random) >> Int64.random(in: 0...63, using: &random)
            var written: [UInt8] = []
            JSONNumber.write(value, to: &written)
            #expect(written == Array(String(value).utf8))
            #expect(try JSONDecoder().decode(Int64.self, from: Data(written)) == value)
        }
    }
}
