import Foundation
import NIOCore
import Synchronization

/// The latest `videos/query` answers, by request body, each with the videos version it was read
/// at (``HubRepository/videosVersion()``): an answer is served again only while the version is
/// the same, so it is byte for byte what the storage would answer now.
///
/// Clients of one household send the same bodies (the same channel list, the same `afterSeq`
/// while nothing is new), so most requests are answered with one read of the version. The cache
/// holds at most `maxEntries` answers and `maxBytes` of bodies and answers, dropping the oldest.
final class HubPageCache: Sendable {
    /// One cached answer.
    struct Entry {
        var version: Int64
        var answer: ByteBuffer
    }

    private struct State {
        var entries: [Data: Entry] = [:]
        var order: [Data] = []
        var bytes = 0
    }

    private let state = Mutex(State())
    private let maxEntries: Int
    private let maxBytes: Int

    /// An empty cache of up to `maxEntries` answers and `maxBytes` of bodies and answers.
    init(maxEntries: Int = 256, maxBytes: Int = 16 << 20) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    /// The cached answer to `body`, whatever its version.
    func entry(for body: Data) -> Entry? {
        state.withLock { $0.entries[body] }
    }

    /// Keeps `answer` to `body`, read at `version`, dropping the oldest answers over the bounds.
    func store(_ answer: ByteBuffer, for body: Data, version: Int64) {
        let size = body.count + answer.readableBytes
        guard size <= maxBytes else { return }
        state.withLock { state in
            if let old = state.entries.updateValue(Entry(version: version, answer: answer), forKey: body) {
                state.bytes -= body.count + old.answer.readableBytes
            } else {
                state.order.append(body)
            }
            state.bytes += size
            while state.order.count > maxEntries || state.bytes > maxBytes {
                let oldest = state.order.removeFirst()
                if let dropped = state.entries.removeValue(forKey: oldest) { state.bytes -= oldest.count + dropped.answer.readableBytes }
            }
        }
    }
}
