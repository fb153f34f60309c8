import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ServiceLifecycle

/// Subscribes every registered channel at the WebSub hub and keeps the subscriptions alive.
///
/// A channel is subscribed when it is registered (or at start, when it never was), with a random
/// secret of its own kept across renewals; the hub then verifies the intent through the callback
/// (``WebSubService``). A verified lease is renewed after four fifths of it; a request the hub
/// refuses or never verifies is sent again, after an exponential backoff for failures. Wake it
/// with ``signal`` when channels are registered or a lease is confirmed.
actor WebSubSubscriber: Service {
    /// The most subscriptions read per batch.
    static let batchSize = 100
    /// The longest the loop sleeps without a signal.
    static let maxIdle: Duration = .seconds(600)
    /// The longest backoff after failed subscribe requests.
    static let maxBackoff: Duration = .seconds(6 * 3600)
    /// The longest a subscribe request may take.
    static let requestTimeout: Duration = .seconds(30)

    /// The longest a batch of due subscriptions may take to be sent, `concurrency` at a time (a
    /// minute more for the database): how long another server instance must leave the batch's
    /// channels alone.
    static func longestBatch(concurrency: Int) -> Duration {
        requestTimeout * ((batchSize + max(1, concurrency) - 1) / max(1, concurrency)) + .seconds(60)
    }

    private let configuration: WebSubConfiguration
    private let subscriptions: any WebSubRepository
    private let httpClient: HTTPClient
    private let logger: Logger
    /// Wakes the loop early: a registration or a confirmed lease.
    let signal: WakeSignal

    init(configuration: WebSubConfiguration, subscriptions: any WebSubRepository, signal: WakeSignal, httpClient: HTTPClient = .shared, logger: Logger) {
        self.configuration = configuration
        self.subscriptions = subscriptions
        self.signal = signal
        self.httpClient = httpClient
        self.logger = logger
    }

    /// Subscribes and renews until the service group shuts down.
    func run() async throws {
        logger.info("WebSub on", metadata: ["hub": "\(configuration.hubURL)", "callbacks": "\(configuration.publicURL)/websub/…"])
        await cancelWhenGracefulShutdown { await self.loop() }
    }

    private func loop() async {
        while !Task.isCancelled {
            var wait = Self.maxIdle
            do {
                try await subscribeDue()
                if let next = try await subscriptions.nextDueTime() {
                    wait = min(Self.maxIdle, .milliseconds(max(0, next - WebSubService.millisecondsNow())))
                }
            } catch {
                logger.error("cannot read the WebSub subscriptions", metadata: ["error": "\(error)"])
            }
            await signal.wait(timeout: wait)
        }
    }

    /// Sends a subscribe request for every subscription due now, `concurrency` at a time.
    func subscribeDue() async throws {
        while !Task.isCancelled {
            let due = try await subscriptions.dueSubscriptions(now: WebSubService.millisecondsNow(), limit: Self.batchSize)
            guard !due.isEmpty else { return }
            try await withThrowingTaskGroup(of: Void.self) { group in
                var pending = due[...]
                for _ in 0..<configuration.concurrency {
                    guard let next = pending.popFirst() else { break }
                    group.addTask { try await self.subscribe(next) }
                }
                while try await group.next() != nil {
                    if let next = pending.popFirst() { group.addTask { try await self.subscribe(next) } }
                }
            }
            guard due.count == Self.batchSize else { return }
        }
    }

    /// Records the request as pending first (a hub may verify before it has even answered the
    /// request), then posts it with the secret stored for the channel (another server instance
    /// may have stored one first); a failure takes the pending mark back and schedules a retry.
    /// A request the hub never verified counts as a failure, so a wrong `--public-url` costs the
    /// hub a request per channel every 1, 2, 4 … 16 verification timeouts, not every one.
    private func subscribe(_ due: DueSubscription) async throws {
        let proposed = due.secret ?? WebSubSignature.newSecret()
        let failures = due.wasNeverVerified ? due.failures + 1 : due.failures
        if due.wasNeverVerified {
            logger.warning("the WebSub hub never verified a subscription; asking again (is --public-url reachable from the hub?)", metadata: [
                "channel": "\(due.channelID)", "unverified": "\(failures)",
            ])
        }
        let requested = WebSubService.millisecondsNow()
        let wait = configuration.verificationTimeout * (1 << min(failures, 4))
        let secret = try await subscriptions.recordRequested(
            channelID: due.channelID, secret: proposed, now: requested, retryAt: requested + wait.wholeMilliseconds, failures: failures
        ) ?? proposed
        guard let failure = await request(channelID: due.channelID, secret: secret) else {
            logger.debug("WebSub subscribe request accepted", metadata: ["channel": "\(due.channelID)", "renewal": "\(due.leaseIsLive)"])
            return
        }
        let now = WebSubService.millisecondsNow()
        let backoff = min(Self.maxBackoff, .seconds(60) * (1 << min(failures, 16)))
        try await subscriptions.recordFailure(channelID: due.channelID, secret: secret, now: now, retryAt: now + backoff.wholeMilliseconds)
        logger.warning("WebSub subscribe request failed", metadata: [
            "channel": "\(due.channelID)", "reason": "\(failure)", "failures": "\(failures + 1)", "retryIn": "\(backoff)",
        ])
    }

    /// Posts the subscribe request; nil when the hub accepted it, else why not.
    private func request(channelID: String, secret: Data) async -> String? {
        let fields = [
            ("hub.callback", configuration.callbackURL(for: channelID)),
            ("hub.mode", "subscribe"),
            ("hub.topic", WebSubConfiguration.topic(for: channelID)),
            ("hub.verify", "async"),
            ("hub.secret", String(decoding: secret, as: UTF8.self)),
            ("hub.lease_seconds", String(configuration.requestedLeaseSeconds)),
        ]
        var request = HTTPClientRequest(url: configuration.hubURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "User-Agent", value: "metube-server")
        request.body = .bytes(ByteBuffer(string: fields.map { "\($0)=\(Self.formEncoded($1))" }.joined(separator: "&")))
        do {
            let response = try await httpClient.execute(request, timeout: TimeAmount(Self.requestTimeout))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return (200..<300).contains(response.status.code) ? nil : "HTTP \(response.status.code)"
        } catch {
            return String(describing: error)
        }
    }

    /// The characters a form value keeps as they are (RFC 3986 unreserved).
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    private static func formEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
