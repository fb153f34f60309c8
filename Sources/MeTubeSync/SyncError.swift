import Foundation
import MeTubeStore
import MeTubeTransfer

/// Every way a sync can fail, and whether trying again may help.
public enum SyncError: RetryableFailure, Sendable, Equatable, CustomStringConvertible {
    /// The server could not be reached or the connection broke (refused, reset, DNS).
    case connection(String)
    /// The server did not answer within the timeout.
    case timeout(seconds: Double)
    /// The server answered with a non-success status; `retryAfter` is its Retry-After, if any.
    case http(status: Int, message: String, retryAfter: Duration?)
    /// The answer could not be read (truncated or malformed JSON, unexpected shape).
    case invalidResponse(String)
    /// The configuration is unusable (e.g. no hub URL).
    case notConfigured(String)
    /// The peer broke a bound the client holds it to (a dripping or oversized answer, endless or
    /// repeating pages, the run's time limit); trying again at once would break it again.
    case limitExceeded(String)
    /// The local store refused the change.
    case store(StoreError)
    /// The mark-sync service failed the request.
    case markSync(MarkSyncRequestFailure)
    /// The run was cancelled.
    case cancelled

    /// Whether trying again later may succeed: connection failures, timeouts, 5xx, 429, and
    /// unreadable answers (usually a connection cut mid-body).
    public var isRetryable: Bool {
        switch self {
        case .connection, .timeout, .invalidResponse: true
        case .http(let status, _, _): status == 429 || status >= 500
        case .markSync(let failure): failure.isRetryable
        case .notConfigured, .limitExceeded, .store, .cancelled: false
        }
    }

    /// The wait the server asked for: its Retry-After header, or the mark-sync service's `retryAfter`.
    public var retryAfter: Duration? {
        switch self {
        case .http(_, _, let retryAfter): retryAfter
        case .markSync(let failure): failure.retryAfter
        default: nil
        }
    }

    /// Whether the failure says the server is unreachable (as opposed to answering badly).
    public var isOffline: Bool {
        switch self {
        case .connection, .timeout: true
        case .markSync(let failure): failure.isUnreachable
        default: false
        }
    }

    /// A one-line explanation for people.
    public var description: String {
        switch self {
        case .connection(let detail): "cannot reach the server: \(detail)"
        case .timeout(let seconds): "the server did not answer within \(seconds.formatted()) s"
        case .limitExceeded(let detail): "stopped: \(detail)"
        case .http(let status, let message, _): "the server answered HTTP \(status)\(message.isEmpty ? "" : ": \(message)")"
        case .invalidResponse(let detail): "unreadable answer from the server: \(detail)"
        case .notConfigured(let detail): "not configured: \(detail)"
        case .store(let error): "store: \(error)"
        case .markSync(let failure): failure.description
        case .cancelled: "cancelled"
        }
    }
}

extension SyncError {
    /// The sync error of a failed transfer to `path`.
    init(_ failure: TransferFailure, path: String) {
        switch failure {
        case .timedOut(let seconds): self = .timeout(seconds: seconds)
        case .connection(let detail): self = .connection(detail)
        case .cancelled: self = .cancelled
        case .runDeadlinePassed, .tooSlow, .tooLarge: self = .limitExceeded("\(path): \(failure.message)")
        case .badEncoding: self = .invalidResponse("\(path): \(failure.message)")
        }
    }
}
