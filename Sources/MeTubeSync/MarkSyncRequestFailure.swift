import MeTubeAPI
import MeTubeTransfer

/// Why a request to the mark-sync service failed.
public enum MarkSyncRequestFailure: RetryableFailure, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with an error body.
    case server(MarkSyncErrorBody, httpStatus: Int)
    /// The server could not be reached, or the connection broke.
    case unreachable(String)
    /// The server answered something that is not the documented shape.
    case unreadable(httpStatus: Int, String)
    /// The request was cancelled by this device (a sync stopped, the program quit); says nothing
    /// about the server.
    case cancelled

    /// A zone's error inside a successful (HTTP 200) answer, as the failure of the request.
    static func zone(_ error: MarkSyncZoneError) -> MarkSyncRequestFailure {
        .server(MarkSyncErrorBody(error.serverErrorCode, error.reason, retryAfter: error.retryAfter), httpStatus: 200)
    }

    /// A `changes/zone` answer that holds no result for the zone asked about.
    static let noZoneInChanges = MarkSyncRequestFailure.unreadable(httpStatus: 200, "changes/zone answered no zone")

    /// Whether trying again later may succeed.
    public var isRetryable: Bool {
        switch self {
        case .server(let body, let status): body.serverErrorCode.isRetryable || status >= 500 || status == 429
        case .unreachable: true
        case .unreadable(let status, _): status >= 500 || status == 429 || status == 200
        case .cancelled: false
        }
    }

    /// The wait the server asked for in its error body, range-checked by ``PeerInput``.
    public var retryAfter: Duration? {
        guard case .server(let body, _) = self else { return nil }
        return PeerInput.retryAfter(seconds: body.retryAfter)
    }

    /// Whether the server could not be reached at all (the client is offline).
    public var isUnreachable: Bool {
        if case .unreachable = self { true } else { false }
    }

    /// A one-line description; never contains a token.
    public var description: String {
        switch self {
        case .server(let body, let status): "status server answered \(status) \(body.serverErrorCode.rawValue): \(body.reason)"
        case .unreachable(let reason): "status server unreachable: \(reason)"
        case .unreadable(let status, let reason): "status server answered \(status) with an unreadable body: \(reason)"
        case .cancelled: "status sync cancelled"
        }
    }
}
