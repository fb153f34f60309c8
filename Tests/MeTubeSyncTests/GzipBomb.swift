import CompressNIO
import Foundation
import NIOCore

/// Compressed bodies for the compression tests, made with compress-nio.
enum GzipBody {
    /// `data` gzipped.
    static func gzip(_ data: Data) throws -> Data {
        var input = ByteBuffer(bytes: data)
        return Data(try input.compress(with: .gzip()).readableBytesView)
    }

    /// A gzip stream of `gibibytes` GiB of spaces in about `gibibytes` MB: a gzip header, then
    /// one sync-flushed deflate block of 1 MiB of spaces repeated. It has no end: a client that
    /// reads it whole never stops inflating.
    static func bomb(gibibytes: Int) throws -> Data {
        let compressor = CompressionAlgorithm.deflate().compressor
        try compressor.startStream()
        var spaces = ByteBuffer(repeating: UInt8(ascii: " "), count: 1 << 20)
        var block = ByteBuffer()
        block.reserveCapacity(64 << 10)
        try spaces.compressStream(to: &block, with: compressor, flush: .sync)
        let blockBytes = Data(block.readableBytesView)
        var bomb = Data([0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0x03])
        bomb.reserveCapacity(10 + blockBytes.count * (gibibytes << 10))
        for _ in 0..<(gibibytes << 10) { bomb.append(blockBytes) }
        return bomb
    }
}
