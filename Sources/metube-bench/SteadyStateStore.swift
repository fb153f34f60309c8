import Foundation
import MeTubeCore
import MeTubeStore
import TestSupport

/// What a store holds between compactions in daily use: the writes of `syncs` direct syncs of
/// ``channels`` channels (each a journal line as `metube sync` writes it: every channel's fetch
/// result, ``newVideosPerSync`` new uploads with real-sized descriptions, the run's time) and of
/// `marks` marks, one line each, as the TUI writes them.
struct SteadyStateWrites {
    /// The channels whose fetch state each sync keeps.
    static let channels = 2_000
    /// The uploads each sync brings.
    static let newVideosPerSync = 50

    var syncs = 20
    var marks = 2_000

    /// The figures' wording of these writes.
    var summary: String { "after \(syncs) syncs of \(Self.channels) channels (\(Self.newVideosPerSync) new videos each) and \(marks) marks, no compaction" }

    /// Writes them to the store in `directory` (built from `library`; writes never compact by
    /// themselves), after `first` syncs written by an earlier call, and returns the size of its
    /// live journals in bytes.
    @discardableResult
    func apply(to directory: URL, library: SyntheticLibrary, first: Int = 0) throws -> Int {
        let store = try Store.open(at: directory)
        let channelIDs = (0..<Self.channels).map { String(format: "UC%022d", $0) }
        let channels = library.channels()
        for sync in first..<(first + syncs) {
            let now = library.newest.addingTimeInterval(Double(sync + 1) * 3_600)
            let videos = (0..<Self.newVideosPerSync).map { index in
                var video = library.video(library.videoCount + sync * Self.newVideosPerSync + index)
                video.channelID = channels[index % channels.count].id
                video.published = now.addingTimeInterval(-Double(index) * 60)
                return video
            }
            try store.transaction { transaction in
                for id in channelIDs {
                    var fetch = transaction.sync.channelFetches[id] ?? ChannelFetchResult(etag: "\"etag-\(id)-0123456789abcdef\"")
                    fetch.lastSuccess = now
                    transaction.sync.channelFetches[id] = fetch
                }
                transaction.sync.lastHubSync = now
                transaction.change.videos = videos
            }
        }
        for index in (first * marks / max(1, syncs))..<((first + syncs) * marks / max(1, syncs)) {
            try store.mark(SyntheticLibrary.videoID((index * 97) % library.videoCount), as: index % 3 == 0 ? .skipped : .watched)
        }
        return journalBytes(in: directory)
    }
}

/// The bytes of the live journals of the store in `directory`.
func journalBytes(in directory: URL) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasPrefix("journal-") && $0.hasSuffix(".jsonl") }.reduce(0) { total, name in
        total + ((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
    }
}
