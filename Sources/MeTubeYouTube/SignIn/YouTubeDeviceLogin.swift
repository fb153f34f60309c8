import Foundation

/// The polling half of the device flow: waits `interval` between polls, 5 s more after each
/// `slow_down` (never more than a minute), and gives up when the code's `expires_in` has been
/// spent waiting.
public struct YouTubeDeviceLogin: Sendable {
    /// The OAuth client polled.
    public let client: YouTubeOAuthClient
    /// How a wait is made; tests record the waits instead of making them.
    public let wait: @Sendable (Duration) async throws -> Void

    /// Creates a flow that waits with `Task.sleep` unless told otherwise.
    public init(client: YouTubeOAuthClient, wait: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.client = client
        self.wait = wait
    }

    /// Polls until the user allows or declines the sign-in, or the code expires.
    public func credentials(for code: YouTubeDeviceCode) async throws(YouTubeError) -> YouTubeCredentials {
        var interval = code.interval
        var waited = Duration.zero
        while waited < code.expiresIn {
            let step = min(interval, code.expiresIn - waited)
            do {
                try await wait(step)
            } catch {
                throw .transfer(.cancelled, path: "/token")
            }
            waited += step
            switch try await client.poll(code) {
            case .pending: continue
            case .slowDown: interval = min(interval + .seconds(5), .seconds(YouTubeDeviceCode.intervalRange.upperBound))
            case .granted(let credentials): return credentials
            }
        }
        throw .expired
    }
}
