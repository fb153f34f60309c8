import MeTubeTransfer
import Testing

/// A failed transfer reads as the one line the sync's errors have always printed for it.
@Suite struct TransferFailureTests {
    @Test func eachFailureExplainsItselfInOneLine() {
        #expect(TransferFailure.timedOut(seconds: 0.5).explanation(path: "SponsorBlock") == "the server did not answer within 0.5 s")
        #expect(TransferFailure.connection("refused").explanation(path: "/token") == "cannot reach the server: refused")
        #expect(TransferFailure.cancelled.explanation(path: "/token") == "cancelled")
        #expect(TransferFailure.tooLarge(maxBytes: 4 << 20).explanation(path: "/subscriptions") == "stopped: /subscriptions: the answer is larger than 4 MiB")
        #expect(TransferFailure.tooSlow(bytes: 10, seconds: 3.25).explanation(path: "x") == "stopped: x: the answer arrived too slowly (10 bytes in 3.2 s)")
        #expect(TransferFailure.runDeadlinePassed.explanation(path: "x") == "stopped: x: the sync ran out of its time limit")
        #expect(TransferFailure.badEncoding("is encoded as br, which was not asked for").explanation(path: "x")
            == "unreadable answer from the server: x: the answer is encoded as br, which was not asked for")
    }
}
