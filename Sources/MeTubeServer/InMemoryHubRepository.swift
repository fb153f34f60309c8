import Foundation
import MeTubeAPI
import MeTubeCore
import Synchronization

/// A `HubRepository` held in memory, for tests and throwaway demos.
public final class InMemoryHubRepository: HubRepository {
    private struct State {
        var channels: [String: HubChannel] = [:]
        var channelOrder: [String] = []
        /// Stored rows, ascending by `seq`.
        var rows: [HubVideoRow] = []
        var seqByVideoID: [String: Int64] = [:]
        var lastSeq: Int64 = 0
    }

    private let state = Mutex(State())

    /// Creates an empty repository.
    public init() {}

    public func register(channelIDs: [String]) async throws -> HubRegisterResponse {
        state.withLock { state in
            var inserted = 0
            for id in channelIDs where state.channels[id] == nil {
                state.channels[id] = HubChannel(channelID: id)
                state.channelOrder.append(id)
                inserted += 1
            }
            return HubRegisterResponse(
                requested: channelIDs.count, inserted: inserted, alreadyPresent: channelIDs.count - inserted,
                totalChannels: state.channels.count
            )
        }
    }

    public func channels() async throws -> [HubChannel] {
        state.withLock { state in state.channelOrder.compactMap { state.channels[$0] } }
    }

    public func registeredChannelIDs() async throws -> [String] {
        state.withLock { $0.channelOrder }
    }

    public func videos(matching query: HubVideoSelection) async throws -> HubVideoPage {
        state.withLock { state in
            let wanted = Set(query.channelIDs)
            var low = 0
            var high = state.rows.count
            while low < high {
                let middle = (low + high) / 2
                if state.rows[middle].seq <= query.afterSeq { low = middle + 1 } else { high = middle }
            }
            var videos: [HubVideo] = []
            for row in state.rows[low...] where wanted.isEmpty || wanted.contains(row.video.channelID) {
                videos.append(HubVideo(row.video, seq: row.seq))
                if videos.count == query.limit { break }
            }
            return HubVideoPage(videos: videos, maxSeqReturned: videos.last?.seq ?? query.afterSeq)
        }
    }

    public func ingest(_ ingestion: FeedIngestion) async throws -> FeedIngestionOutcome {
        state.withLock { state in
            if let title = ingestion.channelTitle, state.channels[ingestion.channelID] != nil {
                state.channels[ingestion.channelID]?.title = title
            }
            var outcome = FeedIngestionOutcome(inserted: 0, updated: 0)
            var touchedChannels: Set<String> = []
            for video in ingestion.videos {
                if let seq = state.seqByVideoID[video.id] {
                    guard let index = state.rows.firstIndex(where: { $0.seq == seq }),
                          state.rows[index].video.title != video.title else { continue }
                    state.rows.remove(at: index)
                    outcome.updated += 1
                } else {
                    outcome.inserted += 1
                }
                state.lastSeq += 1
                state.rows.append(HubVideoRow(seq: state.lastSeq, video: video))
                state.seqByVideoID[video.id] = state.lastSeq
                touchedChannels.insert(video.channelID)
            }
            for channelID in touchedChannels {
                let kept = state.rows.filter { $0.video.channelID == channelID }
                    .sorted { ($0.video.published, $0.seq) > ($1.video.published, $1.seq) }
                for row in kept.dropFirst(HubAPI.videosKeptPerChannel) {
                    state.seqByVideoID[row.video.id] = nil
                }
                if kept.count > HubAPI.videosKeptPerChannel {
                    let dropped = Set(kept.dropFirst(HubAPI.videosKeptPerChannel).map(\.seq))
                    state.rows.removeAll { dropped.contains($0.seq) }
                }
            }
            return outcome
        }
    }
}

/// A stored video under its `seq`.
struct HubVideoRow: Sendable {
    /// The row's sequence number.
    var seq: Int64
    /// The video.
    var video: Video
}
