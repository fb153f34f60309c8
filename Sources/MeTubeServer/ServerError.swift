import Foundation
import Hummingbird
import MeTubeAPI

/// Every failure the server reports, each with the HTTP answer it turns into.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request was understood but its content is wrong: 400 `{"error":"<message>"}`.
    case badRequest(String)
    /// The request body is larger than `limit` bytes: 413 `{"error":"…"}`.
    case payloadTooLarge(limit: Int)
    /// No route matches: 404 with the plain-text body `not found`.
    case notFound
    /// The storage failed: 500 `{"error":"internal error"}` (the detail is logged, not sent).
    case storage(String)
    /// The server could not start with the given settings.
    case invalidConfiguration(String)

    /// A one-line description for logs and the command line.
    public var description: String {
        switch self {
        case .badRequest(let message): "bad request: \(message)"
        case .payloadTooLarge(let limit): "request body larger than \(limit) bytes"
        case .notFound: "not found"
        case .storage(let detail): "storage failure: \(detail)"
        case .invalidConfiguration(let detail): "invalid configuration: \(detail)"
        }
    }
}

extension ServerError: HTTPResponseError {
    /// The HTTP status of the answer.
    public var status: HTTPResponse.Status {
        switch self {
        case .badRequest: .badRequest
        case .payloadTooLarge: .contentTooLarge
        case .notFound: .notFound
        case .storage, .invalidConfiguration: .internalServerError
        }
    }

    /// The answer: JSON `{"error":…}` for every case but `notFound`, which is plain `not found`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        switch self {
        case .notFound:
            return .plainText("not found", status: .notFound)
        case .badRequest(let message):
            return try .json(HubErrorBody(error: message), status: status)
        case .payloadTooLarge(let limit):
            return try .json(HubErrorBody(error: "request body larger than \(limit) bytes"), status: status)
        case .storage, .invalidConfiguration:
            return try .json(HubErrorBody(error: "internal error"), status: status)
        }
    }
}
