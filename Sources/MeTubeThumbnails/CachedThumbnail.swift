/// A thumbnail as the cache keeps it: the JPEG and the validators of the answer it came in.
public struct CachedThumbnail: Sendable, Equatable {
    /// The JPEG bytes.
    public var bytes: [UInt8]
    /// The answer's `ETag`.
    public var etag: String?
    /// The answer's `Last-Modified`.
    public var lastModified: String?

    /// A cached thumbnail.
    public init(bytes: [UInt8], etag: String? = nil, lastModified: String? = nil) {
        self.bytes = bytes
        self.etag = etag
        self.lastModified = lastModified
    }
}
