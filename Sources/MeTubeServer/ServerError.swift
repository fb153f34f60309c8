import Foundation
import Hummingbird
import MeTubeAPI

/// Every failure the server reports; ``ServerErrorMiddleware`` turns each into its answer.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request was understood but its content is wrong: 400.
    case badRequest(String)
    /// The request body is larger than `limit` bytes: 413.
    case payloadTooLarge(limit: Int)
    /// The request needs a status user's token and has none, or one the server does not know: 401.
    case unauthorized(String)
    /// No route matches the path and method: 404.
    case notFound
    /// The client has sent too many requests of a kind; it may try again after `retryAfter`
    /// seconds: 429 with `Retry-After`.
    case tooManyRequests(String, retryAfter: Int)
    /// The server cannot answer now (e.g. a handler missed its deadline); the client may try again
    /// after `retryAfter` seconds: 503 with `Retry-After` and the reason.
    case unavailable(String, retryAfter: Int)
    /// The storage failed: 500 (the detail is logged, never sent).
    case storage(String)
    /// The server could not start with the given settings.
    case invalidConfiguration(String)
    /// An administration command found no database file at the path.
    case databaseMissing(String)
    /// An administration command found the database held by a running server.
    case databaseBusy(String)
    /// An administration command named a user or channel the database does not hold.
    case unknownName(String)
    /// A service the server calls (the WebSub hub, the YouTube Data API) failed or answered
    /// something unusable; the detail is logged.
    case upstream(String)
    /// The YouTube Data API's daily quota is spent (the local budget, or its `quotaExceeded`).
    case quotaExceeded(String)

    /// A one-line description for logs and the command line.
    public var description: String {
        switch self {
        case .badRequest(let message): "bad request: \(message)"
        case .payloadTooLarge(let limit): "request body larger than \(limit) bytes"
        case .unauthorized(let message): "unauthorized: \(message)"
        case .notFound: "not found"
        case .tooManyRequests(let message, _): "too many requests: \(message)"
        case .unavailable(let message, _): "unavailable: \(message)"
        case .storage(let detail): "storage failure: \(detail)"
        case .invalidConfiguration(let detail): "invalid configuration: \(detail)"
        case .databaseMissing(let path): "no database at \(path)"
        case .databaseBusy(let detail): "database busy: \(detail)"
        case .unknownName(let detail): detail
        case .upstream(let detail): "upstream failure: \(detail)"
        case .quotaExceeded(let detail): "quota exceeded: \(detail)"
        }
    }

    /// Whether this is a failure of the request rather than of the server.
    var isClientError: Bool {
        switch self {
        case .badRequest, .payloadTooLarge, .unauthorized, .notFound, .tooManyRequests: true
        case .unavailable, .storage, .invalidConfiguration, .databaseMissing, .databaseBusy, .unknownName, .upstream, .quotaExceeded: false
        }
    }

    /// The HTTP status of the answer.
    var status: HTTPResponse.Status {
        switch self {
        case .badRequest: .badRequest
        case .payloadTooLarge: .contentTooLarge
        case .unauthorized: .unauthorized
        case .notFound: .notFound
        case .tooManyRequests: .tooManyRequests
        case .unavailable: .serviceUnavailable
        case .storage, .invalidConfiguration, .databaseMissing, .databaseBusy, .unknownName, .upstream, .quotaExceeded: .internalServerError
        }
    }

    /// What the client is told: the message of a client error, `internal error` otherwise.
    var clientMessage: String {
        switch self {
        case .badRequest(let message), .unauthorized(let message): message
        case .payloadTooLarge(let limit): "request body larger than \(limit) bytes"
        case .notFound: "not found"
        case .tooManyRequests(let message, _), .unavailable(let message, _): message
        case .storage, .invalidConfiguration, .databaseMissing, .databaseBusy, .unknownName, .upstream, .quotaExceeded: "internal error"
        }
    }

    /// The seconds to wait before retrying, when waiting helps.
    var retryAfter: Int? {
        switch self {
        case .tooManyRequests(_, let seconds), .unavailable(_, let seconds): seconds
        default: nil
        }
    }
}
