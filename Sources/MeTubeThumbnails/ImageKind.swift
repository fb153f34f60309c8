/// What a file's first bytes say it is, so a placeholder can name what came instead of a JPEG.
public enum ImageKind: String, Sendable, Equatable {
    case jpeg = "JPEG"
    case png = "PNG"
    case webp = "WebP"
    case gif = "GIF"
    case html = "HTML"
    case empty = "empty"
    case unknown = "unknown data"

    /// The kind `bytes` start like.
    public static func of(_ bytes: some Collection<UInt8>) -> ImageKind {
        let head = Array(bytes.prefix(16))
        if head.isEmpty { return .empty }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        if head.starts(with: Array("GIF8".utf8)) { return .gif }
        let text = String(decoding: bytes.prefix(256), as: UTF8.self).drop { $0.isWhitespace }.lowercased()
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.hasPrefix("<?xml") || text.hasPrefix("<") { return .html }
        return .unknown
    }
}
