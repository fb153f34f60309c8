import MeTubeCore

/// What a compaction or restore folds into new snapshots, taken from the state under the lock.
struct SnapshotPlan: Sendable {
    var library: Library
    var sync: SyncSnapshot
    /// The journal being appended to when the plan was taken; the new snapshots are one newer.
    var generation: Int
    /// How far that journal was folded in.
    var offset: Int
    var identities: [StorePart: FileIdentity]
    var damagedInputs: Set<String>
    /// The files the library's descriptions are copied from.
    var descriptions: DescriptionLiterals
    /// Whether the plan replaces the contents (a restore) rather than folding the journal in.
    var replacesContents = false

    var newGeneration: Int { generation + 1 }
}
