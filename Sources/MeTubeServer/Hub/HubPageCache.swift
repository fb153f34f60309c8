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
/// An answer is gzipped at most once: the gzipped form is kept beside it.
final class HubPageCache: Sendable {
    /// One cached answer.
    struct Entry {
        var version: Int64
        var answer: ByteBuffer
        var gzipped: ByteBuffer?

        var bytes: Int { answer.readableBytes + (gzipped?.readableBytes ?? 0) }
    }

    /// A request body as a dictionary key, hashed over all its bytes once (`Data` hashes only
    /// a prefix, and bodies listing the same channels share long prefixes).
    private struct Key: Hashable {
        let body: Data
        let hash: Int

        init(_ body: Data) {
            var hasher = Hasher()
            body.withUnsafeBytes { hasher.combine(bytes: $0) }
            self.body = body
            self.hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
        static func == (left: Key, right: Key) -> Bool { left.hash == right.hash && left.body == right.body }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var order: [Key] = []
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
        let key = Key(body)
        return state.withLock { $0.entries[key] }
    }

    /// Keeps `entry` as the answer to `body`, dropping the oldest answers over the bounds.
    func store(_ entry: Entry, for body: Data) {
        let size = body.count + entry.bytes
        guard size <= maxBytes else { return }
        let key = Key(body)
        state.withLock { state in
            if let old = state.entries.updateValue(entry, forKey: key) {
                state.bytes -= body.count + old.bytes
            } else {
                state.order.append(key)
            }
            state.bytes += size
            while state.order.count > maxEntries || state.bytes > maxBytes {
                let oldest = state.order.removeFirst()
                if let dropped = state.entries.removeValue(forKey: oldest) { state.bytes -= oldest.body.count + dropped.bytes }
            }
        }
    }
}
