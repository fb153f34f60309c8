import Foundation
import Hummingbird
import MeTubeAPI

/// The hub's answers: JSON bodies, plain text for `/` and `/health`, and `{"error":"…"}`.
enum HubResponses {
    /// The content type of every JSON answer.
    static let jsonContentType = "application/json; charset=utf-8"

    /// A JSON answer with `value` encoded by `JSONEncoder`.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        json(bytes: ByteBuffer(bytes: try JSONEncoder().encode(value)), status: status)
    }

    /// A JSON answer whose body is already encoded.
    static func json(bytes: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: jsonContentType], body: .init(byteBuffer: bytes))
    }

    /// A plain-text UTF-8 answer.
    static func plainText(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// The answer to `error`: `{"error":"<message>"}`, plus the request id for a server failure
    /// and `Retry-After` when waiting helps.
    static func error(_ error: ServerError, requestID: String) -> Response {
        let body = HubErrorBody(error: error.clientMessage, requestID: error.isClientError ? nil : requestID)
        var response = (try? json(body, status: error.status)) ?? Response(status: error.status)
        if let retryAfter = error.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}
