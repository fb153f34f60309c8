import AsyncHTTPClient
import Foundation
import MeTubeCore
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import Synchronization

/// A peer's complete answer.
package struct PeerResponse: Sendable {
    package let status: Int
    package let headers: HTTPHeaders
    package let body: ByteBuffer
}

/// Why a bounded transfer failed.
public enum TransferFailure: Error, Sendable, Equatable {
    /// The request's total deadline passed.
    case timedOut(seconds: Double)
    /// The whole run's deadline passed.
    case runDeadlinePassed
    /// The body arrived slower than the minimum rate.
    case tooSlow(bytes: Int, seconds: Double)
    /// The body was larger than the cap (inflated, when it came compressed).
    case tooLarge(maxBytes: Int)
    /// The body's content coding was not asked for, or its compressed stream was corrupt or cut
    /// short.
    case badEncoding(String)
    /// The connection failed or broke.
    case connection(String)
    /// The task was cancelled.
    case cancelled

    /// A one-line explanation for people.
    public var message: String {
        switch self {
        case .timedOut(let seconds): "no complete answer within \(seconds.formatted()) s"
        case .runDeadlinePassed: "the sync ran out of its time limit"
        case .tooSlow(let bytes, let seconds): "the answer arrived too slowly (\(bytes) bytes in \(seconds.formatted(.number.precision(.fractionLength(1)))) s)"
        case .tooLarge(let maxBytes): "the answer is larger than \(maxBytes >> 20) MiB"
        case .badEncoding(let detail): "the answer \(detail)"
        case .connection(let detail): detail
        case .cancelled: "cancelled"
        }
    }

    /// This failure of a request to `path` as one line in the words the sync's errors use, for a
    /// client whose own error carries the failure.
    public func explanation(path: String) -> String {
        switch self {
        case .timedOut(let seconds): "the server did not answer within \(seconds.formatted()) s"
        case .connection(let detail): "cannot reach the server: \(detail)"
        case .cancelled: "cancelled"
        case .runDeadlinePassed, .tooSlow, .tooLarge: "stopped: \(path): \(message)"
        case .badEncoding: "unreadable answer from the server: \(path): \(message)"
        }
    }
}

extension HTTPClient {
    /// Sends `request` and reads the whole answer within `limits`; a watchdog checks the total
    /// deadline and the body rate while the body streams in, and cancels the transfer when either
    /// is missed.
    package func transfer(_ request: HTTPClientRequest, limits: TransferLimits) async throws(TransferFailure) -> PeerResponse {
        let start = ContinuousClock.now
        let requestEnd = start + limits.total
        let end = limits.runDeadline.map { min($0, requestEnd) } ?? requestEnd
        guard end > start else { throw .runDeadlinePassed }
        let progress = TransferProgress()
        do {
            return try await withThrowingTaskGroup(of: PeerResponse?.self) { group in
                group.addTask {
                    let remaining = end - ContinuousClock.now
                    let response = try await self.execute(request, deadline: .now() + .nanoseconds(remaining.nanoseconds))
                    progress.headersArrived(at: .now)
                    try HTTPClient.checkContentCoding(response.headers)
                    var body = ByteBuffer()
                    for try await chunk in response.body {
                        guard body.readableBytes + chunk.readableBytes <= limits.maxBodyBytes else {
                            throw TransferFailure.tooLarge(maxBytes: limits.maxBodyBytes)
                        }
                        body.writeImmutableBuffer(chunk)
                        progress.received(chunk.readableBytes)
                    }
                    return PeerResponse(status: Int(response.status.code), headers: response.headers, body: body)
                }
                group.addTask {
                    try await HTTPClient.watch(progress, until: end, requestEnd: requestEnd, start: start, limits: limits)
                    return nil
                }
                while let outcome = try await group.next() {
                    if let response = outcome {
                        group.cancelAll()
                        return response
                    }
                }
                throw TransferFailure.cancelled
            }
        } catch let failure as TransferFailure {
            throw failure
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw ContinuousClock.now >= requestEnd || limits.runDeadline == nil
                ? TransferFailure.timedOut(seconds: limits.total.seconds) : TransferFailure.runDeadlinePassed
        } catch let error as NIOHTTPDecompression.DecompressionError where error == .limit {
            throw .tooLarge(maxBytes: limits.maxBodyBytes)
        } catch is NIOHTTPDecompression.DecompressionError {
            throw .badEncoding("is not a valid compressed stream")
        } catch is NIOHTTPDecompression.ExtraDecompressionError {
            throw .badEncoding("has a compressed stream cut short or followed by other bytes")
        } catch let error as HTTPClientError where error == .cancelled {
            throw .cancelled
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .connection(String(describing: error))
        }
    }

    /// Throws unless the answer's `Content-Encoding` is one ``HTTPClient/peers`` asked for and
    /// inflates (gzip, deflate) or none.
    private static func checkContentCoding(_ headers: HTTPHeaders) throws(TransferFailure) {
        for coding in headers[canonicalForm: "content-encoding"] {
            guard ["gzip", "x-gzip", "deflate", "identity"].contains(coding.lowercased()) else {
                throw .badEncoding("is encoded as \(PeerInput.shortText(String(coding)) ?? "?"), which was not asked for")
            }
        }
    }

    /// Returns never; throws when the deadline passes or the body is slower than the minimum rate.
    private static func watch(_ progress: TransferProgress, until end: ContinuousClock.Instant, requestEnd: ContinuousClock.Instant, start: ContinuousClock.Instant, limits: TransferLimits) async throws {
        while true {
            let now = ContinuousClock.now
            if now >= end {
                throw now >= requestEnd ? TransferFailure.timedOut(seconds: limits.total.seconds) : TransferFailure.runDeadlinePassed
            }
            if let headers = progress.headersTime, now - headers > limits.rateGrace {
                let bytes = progress.bytes
                let seconds = (now - headers).seconds
                if Double(bytes) < Double(limits.minimumBytesPerSecond) * seconds {
                    throw TransferFailure.tooSlow(bytes: bytes, seconds: seconds)
                }
            }
            try await _Concurrency.Task.sleep(for: min(.milliseconds(100), end - now))
        }
    }
}

/// What a transfer has received so far, shared between the reader and its watchdog.
private final class TransferProgress: Sendable {
    private let state = Mutex<(headers: ContinuousClock.Instant?, bytes: Int)>((nil, 0))

    var headersTime: ContinuousClock.Instant? { state.withLock { $0.headers } }
    var bytes: Int { state.withLock { $0.bytes } }

    func headersArrived(at instant: ContinuousClock.Instant) {
        state.withLock { $0.headers = instant }
    }

    func received(_ count: Int) {
        state.withLock { $0.bytes += count }
    }
}

extension Duration {
    /// This duration in whole nanoseconds (saturating at Int64's range).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowAgain ? .max : sum
    }
}
