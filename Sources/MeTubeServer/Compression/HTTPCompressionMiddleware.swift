import Foundation
import HTTPTypes
import Hummingbird
import MeTubeAPI
import NIOCore

/// gzip in both directions on every route.
///
/// - A request body sent with `Content-Encoding: gzip` is inflated before the route reads it,
///   up to `maxInflatedBytes`: past that it is refused with 413 without inflating further. Any
///   other content coding than `identity` is refused with 400.
/// - Every answer says `Accept-Encoding: gzip`: a client learns from it that it may gzip its
///   request bodies (RFC 7694 §3).
/// - A JSON answer of at least ``GzipCoding/minimumBytes`` is gzipped when the request accepts
///   gzip. An answer that already has a `Content-Encoding` (a cached page gzipped once, see
///   ``HubPageCache``) is sent as it is. Every JSON answer says `Vary: Accept-Encoding`.
///
/// It runs inside ``ServerErrorMiddleware``, so a refused body gets the error shape of its API.
struct HTTPCompressionMiddleware<Context: RequestContext>: RouterMiddleware {
    let maxInflatedBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(try await inflated(request), context)
        response.headers[.acceptEncoding] = AcceptEncoding.serverAccepts
        return try await compressed(response, acceptsGzip: GzipCoding.accepts(request.headers))
    }

    private func inflated(_ request: Request) async throws -> Request {
        guard let coding = request.headers[.contentEncoding]?.trimmingCharacters(in: .whitespaces).lowercased(), coding != "identity" else {
            return request
        }
        guard coding == "gzip" || coding == "x-gzip" else {
            throw ServerError.badRequest("unsupported Content-Encoding \(coding.prefix(32)); send gzip or identity")
        }
        var request = request
        let body = try await request.collectBody(upTo: maxInflatedBytes)
        let inflated = try GzipCoding.inflate(body, maxBytes: maxInflatedBytes)
        var head = request.head
        head.headerFields[.contentEncoding] = nil
        head.headerFields[.contentLength] = String(inflated.readableBytes)
        return Request(head: head, body: RequestBody(buffer: inflated))
    }

    private func compressed(_ response: Response, acceptsGzip: Bool) async throws -> Response {
        guard response.headers[.contentType]?.hasPrefix("application/json") == true else { return response }
        var response = response
        response.headers[.vary] = "Accept-Encoding"
        guard acceptsGzip, response.headers[.contentEncoding] == nil,
              (response.body.contentLength ?? .max) >= GzipCoding.minimumBytes
        else { return response }
        let collector = BodyCollector()
        try await response.body.write(CollectingWriter(collector: collector))
        guard collector.bytes.readableBytes >= GzipCoding.minimumBytes else {
            response.body = ResponseBody(byteBuffer: collector.bytes)
            return response
        }
        let gzipped = try GzipCoding.compress(collector.bytes)
        response.headers[.contentEncoding] = "gzip"
        response.body = ResponseBody(byteBuffer: gzipped)
        return response
    }
}

/// The bytes of an answer's body, gathered by a ``CollectingWriter``.
private final class BodyCollector {
    var bytes = ByteBuffer()
}

/// Writes an answer's body into a ``BodyCollector`` instead of the connection.
private struct CollectingWriter: ResponseBodyWriter {
    let collector: BodyCollector

    mutating func write(_ buffer: ByteBuffer) async throws {
        var buffer = buffer
        collector.bytes.writeBuffer(&buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
