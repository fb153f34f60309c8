import Foundation
import Hummingbird
import MeTubeAPI

/// The mark-sync service's answers: JSON bodies and CloudKit-shaped error bodies.
enum MarkSyncResponses {
    /// A JSON answer with `value` encoded by `JSONEncoder`.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONEncoder().encode(value)
        return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The answer carrying `error` with its code's HTTP status, and `Retry-After` when it has one.
    static func error(_ error: MarkSyncErrorBody) -> Response {
        let status = HTTPResponse.Status(code: error.serverErrorCode.httpStatus)
        var response = (try? json(error, status: status)) ?? Response(status: status)
        if let retryAfter = error.retryAfter, retryAfter.isFinite {
            response.headers[.retryAfter] = String(Int(min(max(retryAfter, 0), 86_400).rounded(.up)))
        }
        return response
    }

    /// The CloudKit-shaped answer to a ``ServerError``; a server failure says only
    /// `internal error`, with the request id as its `uuid`.
    static func error(_ failure: ServerError, requestID: String) -> Response {
        var body: MarkSyncErrorBody = switch failure {
        case .notFound: MarkSyncErrorBody(.notFound, "No such operation; see the status API's routes")
        case .badRequest(let message): MarkSyncErrorBody(.badRequest, message)
        case .unauthorized(let message): MarkSyncErrorBody(.authenticationRequired, message)
        case .payloadTooLarge: .limitExceeded(failure.clientMessage)
        case .tooManyRequests(let message, let retryAfter): MarkSyncErrorBody(.throttled, message, retryAfter: Double(retryAfter))
        case .unavailable(let message, let retryAfter): MarkSyncErrorBody(.tryAgainLater, message, retryAfter: Double(retryAfter))
        case .storage, .invalidConfiguration: MarkSyncErrorBody(.internalError, failure.clientMessage)
        }
        body.uuid = requestID
        return error(body)
    }
}
