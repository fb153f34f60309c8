import Foundation
import MeTubeCore

/// The schema version this build writes. Older files migrate additively; newer ones open read-only.
public let currentSchemaVersion = 1

/// The newest version of a journal line this build reads: lines carrying a ``SyncChange`` are
/// version 2, so an older metube opens such a store read-only instead of dropping the sync changes.
let journalLineSchemaVersion = 2

/// The parts of the store that have a snapshot file of their own.
enum StorePart: String, CaseIterable, Sendable {
    case library
    case marks
    case sync

    /// The snapshot's file name.
    var fileName: String { "\(rawValue).json" }
}

/// `library.json`: channels and videos, and the channels' subscriptions (a key added later;
/// absent when none).
struct LibraryFile: Codable {
    var schemaVersion: Int
    var generation: Int
    var channels: [Channel]
    var videos: [Video]
    var subscriptions: [Subscription]?
}

/// `marks.json`: every mark, and every playback position (a key added later; absent when none).
struct MarksFile: Codable {
    var schemaVersion: Int
    var generation: Int
    var marks: [Mark]
    var positions: [PlaybackPosition]?
    /// The watch-later queue's entries (a key added later; absent when none).
    var queue: [QueueEntry]?
}

/// `sync.json`: what the syncs remember.
struct SyncFile: Codable {
    var schemaVersion: Int
    var generation: Int
    var sync: SyncSnapshot
}
