@testable import MeTubeCore
import Testing

/// ``CompactCount`` holds a video's view and rating counts in two and four bytes.
@Suite struct CompactCountTests {
    @Test func smallCountsAreExactAndLargeOnesCloseAndStable() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...FeedLimits.maxCount, using: &random) >> Int.random(in: 0...50, using: &random)
            // Two bytes reach 2^41 (ratings), four bytes past FeedLimits.maxCount (views).
            for value in [count < 1 << 41 ? CompactCount<UInt16>(count).value : count, CompactCount<UInt32>(count).value] {
                guard let kept = value else {
                    Issue.record("\(count) read back as unknown")
                    continue
                }
                #expect(kept <= count && count - kept <= count / 1_000, "\(count) kept as \(kept)")
            }
            #expect(CompactCount<UInt16>(CompactCount<UInt16>(count).value) == CompactCount<UInt16>(count))
            #expect(CompactCount<UInt32>(CompactCount<UInt32>(count).value) == CompactCount<UInt32>(count))
        }
        #expect(CompactCount<UInt16>(2_047).value == 2_047 && CompactCount<UInt32>(134_217_727).value == 134_217_727)
        #expect(CompactCount<UInt32>(8_700_000_000).value.map { abs($0 - 8_700_000_000) < 100 } == true)
    }

    @Test func unknownAndNegativeReadAsNil() {
        #expect(CompactCount<UInt16>(nil).value == nil && CompactCount<UInt16>(-1).value == nil)
        #expect(CompactCount<UInt32>.unknown.value == nil && CompactCount<UInt32>(0).value == 0)
        #expect(CompactCount<UInt16>(Int.max).value != nil)
    }
}
