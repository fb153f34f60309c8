import Foundation

/// What one write changes in the sync state, as a journal line carries it: the small fields whole,
/// and of the per-channel collections only what changed. A sync that brings nothing new touches
/// every channel's fetch result (each one's `lastSuccess`), so the channels that succeeded again
/// with nothing else changed are written as one time and the few channels that did not, never as
/// a copy of every channel's state: a no-op sync of 2,000 channels writes a line of a few hundred
/// bytes, not a few hundred kilobytes.
///
/// Applied to exactly the sync state it was made from (journal lines are replayed in order over the
/// snapshot that precedes them), it gives exactly the state it was made for.
public struct SyncChange: Codable, Sendable, Equatable {
    /// The sync state's fields after the change, without its two per-channel collections (empty here).
    var fields: SyncSnapshot
    /// The channels the hub acknowledged, when they changed.
    var hubRegisteredChannelIDs: [String]?
    /// Channels' fetch results that were added or changed otherwise than by ``succeeded``.
    var channelFetches: [String: ChannelFetchResult] = [:]
    /// Channels whose fetch result is gone.
    var removedChannelFetches: [String] = []
    /// Every channel with a fetch result before the change, but those in `except`, succeeded again
    /// at `at` with nothing else changed (applied before ``channelFetches``).
    var succeeded: Succeeded?

    /// Channels that succeeded again at one time (see ``SyncChange/succeeded``).
    struct Succeeded: Codable, Sendable, Equatable {
        /// When they succeeded.
        var at: Date
        /// The channels with an earlier fetch result that are not among them.
        var except: [String]
    }

    /// What turns `old` into `new`.
    public init(from old: SyncSnapshot, to new: SyncSnapshot) {
        fields = new
        fields.hubRegisteredChannelIDs = []
        fields.channelFetches = [:]
        if new.hubRegisteredChannelIDs != old.hubRegisteredChannelIDs { hubRegisteredChannelIDs = new.hubRegisteredChannelIDs }
        removedChannelFetches = old.channelFetches.keys.filter { new.channelFetches[$0] == nil }.sorted()
        var changed = new.channelFetches.filter { old.channelFetches[$0.key] != $0.value }
        var onlySucceeded: [Date: Set<String>] = [:]
        for (channelID, result) in changed {
            guard let previous = old.channelFetches[channelID], let time = result.lastSuccess else { continue }
            var touched = previous
            touched.lastSuccess = time
            if touched == result { onlySucceeded[time, default: []].insert(channelID) }
        }
        // One time (the run's) covers nearly all of them; the channels it leaves out are listed
        // when that is shorter than listing the ones it covers.
        if let (time, channelIDs) = onlySucceeded.max(by: { $0.value.count < $1.value.count }) {
            let except = old.channelFetches.keys.filter { !channelIDs.contains($0) }
            if channelIDs.count > except.count {
                succeeded = Succeeded(at: time, except: except.sorted())
                for channelID in channelIDs { changed[channelID] = nil }
            }
        }
        channelFetches = changed
    }

    /// Applies this change to `sync` in place: replaying a journal applies one per sync line, and
    /// each would otherwise copy every channel's fetch result.
    public func apply(to sync: inout SyncSnapshot) {
        var channelFetches = sync.channelFetches
        sync.channelFetches = [:]
        let registered = hubRegisteredChannelIDs ?? sync.hubRegisteredChannelIDs
        sync = fields
        sync.hubRegisteredChannelIDs = registered
        if let succeeded {
            let except = Set(succeeded.except)
            for index in channelFetches.indices where !except.contains(channelFetches.keys[index]) {
                channelFetches.values[index].lastSuccess = succeeded.at
            }
        }
        for channelID in removedChannelFetches { channelFetches[channelID] = nil }
        channelFetches.merge(self.channelFetches) { _, new in new }
        sync.channelFetches = channelFetches
    }

    private enum CodingKeys: String, CodingKey {
        case fields, hubRegisteredChannelIDs, channelFetches, removedChannelFetches, succeeded
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fields = try container.decode(SyncSnapshot.self, forKey: .fields)
        hubRegisteredChannelIDs = try container.decodeIfPresent([String].self, forKey: .hubRegisteredChannelIDs)
        channelFetches = try container.decodeIfPresent([String: ChannelFetchResult].self, forKey: .channelFetches) ?? [:]
        removedChannelFetches = try container.decodeIfPresent([String].self, forKey: .removedChannelFetches) ?? []
        succeeded = try container.decodeIfPresent(Succeeded.self, forKey: .succeeded)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fields, forKey: .fields)
        try container.encodeIfPresent(hubRegisteredChannelIDs, forKey: .hubRegisteredChannelIDs)
        if !channelFetches.isEmpty { try container.encode(channelFetches, forKey: .channelFetches) }
        if !removedChannelFetches.isEmpty { try container.encode(removedChannelFetches, forKey: .removedChannelFetches) }
        try container.encodeIfPresent(succeeded, forKey: .succeeded)
    }
}
