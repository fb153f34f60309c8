import Foundation
import Hummingbird
import MeTubeAPI

/// Every failure the server reports: an answer to the request (the first six cases, each an HTTP
/// status), a failure of its storage, or settings it cannot start with. ``ServerErrorMiddleware``
/// turns each into what the client is told (``answer``).
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request was understood but its content is wrong: 400.
    case badRequest(String)
    /// The request body is larger than `limit` bytes: 413.
    case payloadTooLarge(limit: Int)
    /// The request needs a mark-sync user's token and has none, or one the server does not know: 401.
    case unauthorized(String)
    /// No route matches the path and method: 404.
    case notFound
    /// The client has sent too many requests of a kind; it may try again after `retryAfter`
    /// seconds: 429 with `Retry-After`.
    case tooManyRequests(String, retryAfter: Int)
    /// The server cannot answer now (e.g. a handler missed its deadline); the client may try again
    /// after `retryAfter` seconds: 503 with `Retry-After` and the reason.
    case unavailable(String, retryAfter: Int)
    /// The storage failed; ``answer`` says what a client is told of it.
    case storage(StorageFailure)
    /// The server, or an administration command, cannot run with the given settings.
    case invalidConfiguration(String)

    /// A one-line description for logs and the command line.
    public var description: String {
        switch self {
        case .badRequest(let message): "bad request: \(message)"
        case .payloadTooLarge(let limit): "request body larger than \(limit) bytes"
        case .unauthorized(let message): "unauthorized: \(message)"
        case .notFound: "not found"
        case .tooManyRequests(let message, _): "too many requests: \(message)"
        case .unavailable(let message, _): "unavailable: \(message)"
        case .storage(let failure): failure.description
        case .invalidConfiguration(let detail): "invalid configuration: \(detail)"
        }
    }

    /// What a client is answered for this failure: an answer to the request as itself; a
    /// database that cannot answer now as 503 with its reason and `Retry-After`
    /// (``StorageDeadline/retryAfter``), since waiting helps; nil for any other failure of the
    /// server, which is logged and answered `internal error`.
    var answer: ServerError? {
        switch self {
        case .badRequest, .payloadTooLarge, .unauthorized, .notFound, .tooManyRequests, .unavailable: self
        case .storage(.unavailable(let reason)): .unavailable(reason, retryAfter: StorageDeadline.retryAfter)
        case .storage, .invalidConfiguration: nil
        }
    }

    /// Whether this is a failure of the request rather than of the server.
    var isClientError: Bool {
        switch self {
        case .badRequest, .payloadTooLarge, .unauthorized, .notFound, .tooManyRequests: true
        case .unavailable, .storage, .invalidConfiguration: false
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
        case .storage, .invalidConfiguration: .internalServerError
        }
    }

    /// What the client is told: the message of a client error, `internal error` otherwise.
    var clientMessage: String {
        switch self {
        case .badRequest(let message), .unauthorized(let message): message
        case .payloadTooLarge(let limit): "request body larger than \(limit) bytes"
        case .notFound: "not found"
        case .tooManyRequests(let message, _), .unavailable(let message, _): message
        case .storage, .invalidConfiguration: "internal error"
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
