import Foundation
import Hummingbird

extension Response {
    /// The content type of every JSON answer.
    static let jsonContentType = "application/json; charset=utf-8"

    /// A JSON answer with `value` encoded by `JSONEncoder`.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONEncoder().encode(value)
        return json(bytes: ByteBuffer(bytes: data), status: status)
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
}
