import MeTubeCore

/// Lower-cased title and channel name of every video of a library in one byte buffer, so a search
/// keystroke scans bytes instead of lower-casing tens of thousands of strings.
struct SearchIndex: Sendable {
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]

    /// Indexes the videos of `library`, in feed order.
    init(_ library: Library) {
        bytes.reserveCapacity(library.videos.count * 64)
        starts.reserveCapacity(library.videos.count + 1)
        for video in library.videos {
            Self.appendLowercased(video.title, to: &bytes)
            bytes.append(0x0A)
            Self.appendLowercased(library.channels[video.channelID]?.displayName ?? video.channelID, to: &bytes)
            starts.append(bytes.count)
        }
    }

    /// The search form of `needle`.
    static func key(_ needle: String) -> [UInt8] {
        var result: [UInt8] = []
        appendLowercased(needle, to: &result)
        return result
    }

    /// Whether the video at `index` of the library contains `needle` (a ``key(_:)``).
    func matches(_ index: Int, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        let end = starts[index + 1] - needle.count
        var position = starts[index]
        let first = needle[0]
        return bytes.withUnsafeBufferPointer { buffer in
            needle.withUnsafeBufferPointer { wanted in
                while position <= end {
                    if buffer[position] == first {
                        var offset = 1
                        while offset < wanted.count, buffer[position + offset] == wanted[offset] { offset += 1 }
                        if offset == wanted.count { return true }
                    }
                    position += 1
                }
                return false
            }
        }
    }

    private static func appendLowercased(_ text: String, to buffer: inout [UInt8]) {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in utf8 { buffer.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) }
        } else {
            buffer.append(contentsOf: text.lowercased().utf8)
        }
    }
}
