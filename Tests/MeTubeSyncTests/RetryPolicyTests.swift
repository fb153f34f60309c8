@testable import MeTubeSync
import MeTubeTransfer
import Testing

@Suite struct RetryPolicyTests {
    @Test func waitsOneTwoFourSecondsPlusJitterOnlyForRetryableFailures() {
        let policy = RetryPolicy()
        for (attempt, base) in [1, 2, 4].enumerated() {
            let wait = policy.delay(afterAttempt: attempt, retryable: true, retryAfter: nil)
            #expect(wait.map { $0 >= .seconds(base) && $0 <= .seconds(base) * 1.25 } == true)
        }
        #expect(policy.delay(afterAttempt: 3, retryable: true, retryAfter: nil) == nil)
        #expect(policy.delay(afterAttempt: 0, retryable: false, retryAfter: nil) == nil)
    }

    @Test func honoursRetryAfterUpToItsLimit() {
        let policy = RetryPolicy(jitter: 0)
        #expect(policy.delay(afterAttempt: 0, retryable: true, retryAfter: .seconds(10)) == .seconds(10))
        #expect(policy.delay(afterAttempt: 2, retryable: true, retryAfter: .milliseconds(10)) == .seconds(4))
        #expect(policy.delay(afterAttempt: 0, retryable: true, retryAfter: .seconds(61)) == nil)
    }

    @Test func eachFailureDecidesWhetherItIsRetryable() {
        #expect(SyncError.http(status: 503, message: "", retryAfter: .seconds(2)).retryAfter == .seconds(2))
        #expect(!SyncError.http(status: 400, message: "", retryAfter: nil).isRetryable)
        #expect(!MarkSyncRequestFailure.cancelled.isRetryable)
        #expect(MarkSyncRequestFailure.unreachable("refused").isRetryable)
        let throttled = MarkSyncRequestFailure.server(.init(.throttled, "slow down", retryAfter: 1.5), httpStatus: 429)
        #expect(throttled.isRetryable && throttled.retryAfter == .milliseconds(1_500))
        let absurd = MarkSyncRequestFailure.server(.init(.throttled, "slow down", retryAfter: 1e300), httpStatus: 429)
        #expect(absurd.retryAfter == PeerInput.maxRetryAfter, "an absurd wait is clamped, so the policy gives up rather than hammering the server")
        #expect(RetryPolicy().delay(afterAttempt: 0, retryable: true, retryAfter: absurd.retryAfter) == nil)
    }

    @Test func aCancelledWaitEndsTheRetriesAsCancelled() async {
        let policy = RetryPolicy(delays: [.seconds(60)])
        let task = Task { () -> SyncError? in
            do throws(SyncError) {
                _ = try await policy.perform { () async throws(SyncError) -> Int in throw .connection("refused") }
                return nil
            } catch {
                return error
            }
        }
        task.cancel()
        #expect(await task.value == .cancelled)
    }
}
