@testable import MeTubeSync
import MeTubeTransfer
import Testing

/// The sync's own range checks on its peers' numbers, ids and record names.
@Suite struct SyncPeerInputTests {
    @Test func numbersOutsideTheirRangeAreRefused() {
        #expect(PeerInput.seq(0) == nil && PeerInput.seq(-1) == nil && PeerInput.seq(9_007_199_254_740_992) == nil)
        #expect(PeerInput.seq(9_007_199_254_740_991) == 9_007_199_254_740_991)
        #expect(PeerInput.durationSeconds(-1) == nil && PeerInput.durationSeconds(9_000_000_000_000_000) == nil)
        #expect(PeerInput.durationSeconds(3600) == 3600)
        #expect(PeerInput.millis(1_700_000_000_000_000_000) == nil && PeerInput.millis(-1) == nil)
        #expect(PeerInput.millis(1_700_000_000_000) == 1_700_000_000_000)
    }

    @Test func idsAndNamesAreValidated() {
        #expect(PeerInput.isVideoID("dQw4w9WgXcQ") && PeerInput.isVideoID("-hAAAAAAAAA"))
        #expect(!PeerInput.isVideoID("dQw4w9WgXc\u{0}") && !PeerInput.isVideoID("dQw4w9WgXcQQ"))
        #expect(PeerInput.isChannelID("UC" + String(repeating: "a", count: 22)))
        #expect(!PeerInput.isChannelID("UC" + String(repeating: "a", count: 21) + "\n"))
        #expect(PeerInput.isRecordName("v12") && !PeerInput.isRecordName("") && !PeerInput.isRecordName("a b"))
        #expect(!PeerInput.isRecordName(String(repeating: "a", count: 129)))
    }
}
