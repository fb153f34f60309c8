internal import CTurboJPEG

/// Encodes RGBA pixels as JPEG with libjpeg-turbo: the demo server's thumbnails and test fixtures.
public enum JPEGEncoder {
    /// `image` as JPEG bytes at `quality` (1–100).
    public static func encode(_ image: RGBAImage, quality: Int = 85) throws(ThumbnailError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw .damaged("libjpeg-turbo did not start") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let result = image.pixels.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_RGBA.rawValue),
                        &output, &size, Int32(TJSAMP_420.rawValue), Int32(min(max(quality, 1), 100)), 0)
        }
        defer { tjFree(output) }
        guard result == 0, let output else { throw .damaged("could not encode") }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
