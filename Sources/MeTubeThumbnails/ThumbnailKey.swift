/// The name a thumbnail has in the cache: the video's id, when it is safe as a file name.
public enum ThumbnailKey {
    /// Whether `videoID` can name a cache file: 1 to 64 of `A–Z a–z 0–9 - _`.
    public static func isValid(_ videoID: String) -> Bool {
        (1...64).contains(videoID.utf8.count) && videoID.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
        }
    }
}
