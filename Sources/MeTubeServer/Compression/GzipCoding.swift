import CompressNIO
import HTTPTypes
import MeTubeAPI
import NIOCore

/// gzip for the server's answers and request bodies, by compress-nio (zlib).
enum GzipCoding {
    /// The smallest answer worth compressing: below it the gzip header and the client's work
    /// cost more than the bytes saved.
    static var minimumBytes: Int { 1024 }

    /// Whether an `Accept-Encoding` header accepts gzip (see ``AcceptEncoding/acceptsGzip(_:)``).
    static func accepts(_ headers: HTTPFields) -> Bool {
        AcceptEncoding.acceptsGzip(headers[values: .acceptEncoding])
    }

    /// `bytes` gzipped.
    static func compress(_ bytes: ByteBuffer) throws -> ByteBuffer {
        var input = bytes
        return try input.compress(with: .gzip())
    }

    /// `bytes` inflated from gzip, refused past `maxBytes` without allocating beyond it.
    ///
    /// - Throws: ``ServerError/payloadTooLarge(limit:)`` past `maxBytes`,
    ///   ``ServerError/badRequest(_:)`` for a stream that is not gzip or is cut short.
    static func inflate(_ bytes: ByteBuffer, maxBytes: Int) throws -> ByteBuffer {
        var input = bytes
        do {
            let decompressor = CompressionAlgorithm.gzip().decompressor
            try decompressor.startStream()
            let output = try input.decompressStream(with: decompressor, maxSize: maxBytes + 1)
            try decompressor.finishStream()
            guard input.readableBytes == 0 else { throw ServerError.badRequest("the gzip request body has bytes after its end") }
            return output
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw ServerError.payloadTooLarge(limit: maxBytes)
        } catch let error as CompressNIOError {
            throw ServerError.badRequest("the request body is not a whole gzip stream (\(error))")
        }
    }

}
