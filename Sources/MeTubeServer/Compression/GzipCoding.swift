import CompressNIO
import HTTPTypes
import NIOCore

/// gzip for the server's answers and request bodies, by compress-nio (zlib).
enum GzipCoding {
    /// The smallest answer worth compressing: below it the gzip header and the client's work
    /// cost more than the bytes saved.
    static var minimumBytes: Int { 1024 }

    /// Whether an `Accept-Encoding` header accepts gzip: `gzip`, `x-gzip` or `*` with no
    /// `q=0` (RFC 9110 §12.5.3).
    static func accepts(_ headers: HTTPFields) -> Bool {
        for field in headers[values: .acceptEncoding] {
            for item in field.split(separator: ",") {
                let parts = item.split(separator: ";", maxSplits: 1)
                let coding = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
                guard coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
                return parts.count < 2 || qualityIsPositive(parts[1])
            }
        }
        return false
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

    private static func qualityIsPositive(_ parameter: Substring) -> Bool {
        let pair = parameter.split(separator: "=", maxSplits: 1)
        guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "q" else { return false }
        return (Double(pair[1].trimmingCharacters(in: .whitespaces)) ?? 0) > 0
    }
}
