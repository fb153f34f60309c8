import Foundation
import MeTubeCore

/// What a store holds in memory, and where on disk each part of it came from.
struct StoreState: Sendable {
    var library = Library()
    var sync: SyncSnapshot
    var clock = HybridLogicalClock()
    /// The journal generation each part's snapshot already includes.
    var generations: [StorePart: Int] = [:]
    /// The snapshot files as they were when read, to notice another process replacing them.
    var identities: [StorePart: FileIdentity] = [:]
    /// How far each journal generation has been read.
    var journalOffsets: [Int: Int] = [:]
    /// Why the store may not be written, when it may not.
    var readOnlyReason: String?
    /// Messages for the user about recovery, not yet shown.
    var notices: [String] = []
    /// Messages already shown, so a reload that finds the same damage again does not repeat them.
    var shownNotices: Set<String> = []
    /// Files that were damaged or held fields that had to be defaulted: kept as `.corrupt-<time>`
    /// copies and replaced by fresh snapshots at the next write (reading never writes).
    var damagedInputs: Set<String> = []
    /// The append journal's length when a compaction last failed (a full or read-only disk): no
    /// new attempt is suggested until the journal grows past it.
    var compactionFailedAtOffset: Int?
    /// Whether ``sync``'s device id was made in memory and is not on disk yet.
    var deviceIDUnsaved = false
    /// The files the library's description references point into, by number.
    var descriptionFiles: [UInt32: StoreFile] = [:]

    /// Whether the next write must first fold everything into fresh snapshots.
    var needsRepair: Bool { !damagedInputs.isEmpty || deviceIDUnsaved }

    /// The newest journal on disk. Newer than every snapshot only when a compaction stopped after
    /// carrying the lines written during it into the next journal (which then stays the one to
    /// append to, so lines keep their order).
    var newestJournal = 0

    /// The journal generation new lines go to: the newest snapshot generation, or a newer journal.
    var appendGeneration: Int { max(generations.values.max() ?? 0, newestJournal) }

    /// The parts a line of journal `generation` applies to: those whose snapshot does not include it.
    func parts(forJournal generation: Int) -> Set<StorePart> {
        Set(StorePart.allCases.filter { (generations[$0] ?? 0) <= generation })
    }

    /// Applies what reading journal `generation` found, keeping the journal open when its videos'
    /// descriptions point into it.
    mutating func apply(_ read: Journal.ReadResult, journalGeneration generation: Int) {
        if let file = read.descriptionFile { descriptionFiles[file.number] = file }
        apply(read.changes, journalGeneration: generation)
    }

    /// Applies journal lines of one generation, batching video upserts so replay sorts rarely.
    mutating func apply(_ changes: [StoreChange], journalGeneration generation: Int) {
        let parts = parts(forJournal: generation)
        var pendingVideos: [Video] = []
        for change in changes {
            if parts.contains(.library) {
                for channel in change.channels { library.upsert(channel) }
                for subscription in change.subscriptions {
                    library.apply(subscription)
                    clock.observe(subscription.hlc)
                }
                pendingVideos += change.videos
                if !change.removedChannelIDs.isEmpty {
                    library.upsert(pendingVideos)
                    pendingVideos.removeAll()
                    for id in change.removedChannelIDs { library.removeChannel(id) }
                }
            }
            if parts.contains(.marks) {
                for mark in change.marks {
                    library.apply(mark)
                    observeClocks(of: mark)
                }
                for id in change.removedMarkIDs { library.removeMark(id) }
                for position in change.positions {
                    library.apply(position)
                    clock.observe(position.hlc)
                }
                for entry in change.queue {
                    library.apply(entry)
                    clock.observe(entry.hlc)
                }
            }
            if parts.contains(.sync) {
                if let newSync = change.sync { sync = newSync }
                change.syncChange?.apply(to: &sync)
            }
        }
        library.upsert(pendingVideos)
    }

    /// Keeps the clock ahead of every reading in `mark`.
    mutating func observeClocks(of mark: Mark) {
        clock.observe(mark.hlc)
        if let hlc = mark.base?.hlc { clock.observe(hlc) }
        if let hlc = mark.theirs?.hlc { clock.observe(hlc) }
    }
}
