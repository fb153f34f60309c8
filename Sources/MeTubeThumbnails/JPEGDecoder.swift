internal import CTurboJPEG

/// Decodes JPEG thumbnails with libjpeg-turbo, checking the size of the file and the size its
/// header claims before a single pixel is decoded: a hostile file cannot make it allocate much.
public struct JPEGDecoder: Sendable {
    /// The most bytes a thumbnail file may have.
    public var byteLimit: Int
    /// The widest and tallest picture decoded.
    public var dimensionLimit: Int

    /// Thumbnails are 320×180 (`mqdefault.jpg`) to 1280×720 and a few tens of KiB; these limits
    /// leave room while refusing a header that claims 65,000×65,000.
    public init(byteLimit: Int = 2 << 20, dimensionLimit: Int = 4096) {
        self.byteLimit = byteLimit
        self.dimensionLimit = dimensionLimit
    }

    /// The picture in `bytes`, or why there is none.
    public func decode(_ bytes: [UInt8]) throws(ThumbnailError) -> RGBAImage {
        guard bytes.count <= byteLimit else { throw .tooManyBytes(count: bytes.count, limit: byteLimit) }
        let kind = ImageKind.of(bytes)
        guard kind == .jpeg else { throw .notJPEG(kind: kind) }
        guard let handle = tjInitDecompress() else { throw .damaged("libjpeg-turbo did not start") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw .damaged(Self.message(handle)) }
        guard width > 0, height > 0, width <= dimensionLimit, height <= dimensionLimit else {
            throw .tooLarge(width: Int(width), height: Int(height))
        }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let flags = Int32(TJFLAG_STOPONWARNING)
        let result = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                tjDecompress2(handle, source.baseAddress, UInt(bytes.count), target.baseAddress, width, 0, height, Int32(TJPF_RGBA.rawValue), flags)
            }
        }
        guard result == 0 else { throw .damaged(Self.message(handle)) }
        return RGBAImage(width: Int(width), height: Int(height), pixels: pixels)
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unreadable" }
        return String(cString: text)
    }
}
