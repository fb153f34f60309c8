import Foundation
import MeTubeCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The client's local-first store: JSON snapshots plus an append-only, fsync'd journal in one
/// directory.
///
/// Several processes may share a store (the TUI, `metube mark` from a script, `metube sync` from
/// cron): every write takes an advisory lock for that one write, first picks up what the others
/// wrote, then appends one journal line. Within a process the store is safe to use from any thread.
///
/// Lock discipline: the in-process mutex guards only the in-memory state and is held for
/// in-memory work alone — never across a `flock` wait, an encode, a read of the disk or an fsync.
/// Writers of one process queue for the `flock` behind a second lock of their own (so one busy
/// writer cannot starve another's polling), which readers never take.
/// Opening and reading never write: repairs (a damaged file, a device id not yet saved) wait for
/// the next write.
public final class Store: Sendable {
    /// The directory holding the store's files.
    public let directory: URL
    /// How the store was opened.
    public let options: StoreOptions
    let journal: Journal
    let fileLock: FileLock
    let state: Mutex<StoreState>
    /// Taken by this process's writers around the file lock, never by readers.
    private let writerQueue = Mutex<Void>(())

    private init(directory: URL, options: StoreOptions, state: StoreState) {
        self.directory = directory
        self.options = options
        journal = Journal(directory: directory.path)
        fileLock = FileLock(path: directory.appendingPathComponent("lock").path)
        self.state = Mutex(state)
    }

    /// Opens the store in `directory`, creating it when missing.
    ///
    /// Damaged files are recovered in memory (see ``takeNotices()``) and repaired at the next
    /// write; opening works on a full or read-only disk. A store written by a newer schema opens
    /// read-only (see ``readOnlyReason``).
    public static func open(at directory: URL, options: StoreOptions = StoreOptions()) throws(StoreError) -> Store {
        try FileIO.makeDirectory(directory.path)
        let journal = Journal(directory: directory.path)
        let loader = StoreLoader(directory: directory.path, journal: journal)
        let lock = FileLock(path: directory.appendingPathComponent("lock").path)
        var loaded = try lock.withReadLock(timeout: options.lockTimeout) { (held: Bool) throws(StoreError) in try loader.load(holdingLock: held) }
        assignDeviceIDIfMissing(&loaded, previous: nil)
        return Store(directory: directory, options: options, state: loaded)
    }

    /// Why the store may not be changed, when it may not; `nil` for a writable store.
    public var readOnlyReason: String? { state.withLock { $0.readOnlyReason } }

    /// Whether the store may not be changed.
    public var isReadOnly: Bool { readOnlyReason != nil }

    /// This device's id.
    public var deviceID: String { state.withLock { $0.sync.deviceID } }

    /// The library as it stands (a value; cheap to copy).
    public func library() -> Library { state.withLock { $0.library } }

    /// The sync state as it stands.
    public func syncSnapshot() -> SyncSnapshot { state.withLock { $0.sync } }

    /// Returns, once, the messages about recovery the user has not seen yet.
    public func takeNotices() -> [String] {
        state.withLock { state in
            defer {
                state.shownNotices.formUnion(state.notices)
                state.notices.removeAll()
            }
            return state.notices
        }
    }

    /// Whether ``compact()`` is worth running: the journal has grown, or a damaged file waits to
    /// be repaired. After a failed compaction, not again until the journal grows.
    public var needsCompaction: Bool {
        state.withLock { state in
            guard state.readOnlyReason == nil else { return false }
            let offset = state.journalOffsets[state.appendGeneration] ?? 0
            if let failedAt = state.compactionFailedAtOffset, offset <= failedAt { return false }
            return offset >= options.compactionThreshold || state.needsRepair
        }
    }

    /// Makes a mark on this device durable (journal append + fsync) and returns it.
    @discardableResult
    public func mark(_ videoID: String, as status: WatchStatus) throws(StoreError) -> Mark {
        try transaction { $0.mark(videoID, as: status) }
    }

    /// Runs a read-modify-write under the store's lock: `body` sees the current library and sync
    /// state (other processes' changes included) and stages a change, which is written as one
    /// journal line before this returns. A pending repair is done first.
    public func transaction<T: Sendable>(_ body: (inout StoreTransaction) -> T) throws(StoreError) -> T {
        try checkWritable()
        return try exclusively { () throws(StoreError) -> T in
            try catchUp(holdingFileLock: true)
            if state.withLock({ $0.needsRepair }) { try compactHoldingFileLock() }
            let (generation, offset) = state.withLock { ($0.appendGeneration, $0.journalOffsets[$0.appendGeneration] ?? 0) }
            let (result, change, clock) = Self.run(body, on: state.withLock { $0 })
            guard !change.isEmpty else { return result }
            let files = state.withLock { $0.descriptionFiles }
            let appended = try journal.append(change, generation: generation, descriptions: DescriptionLiterals(files: files))
            let (applied, journalFile) = descriptionsAsReferences(change, appended, generation: generation, files: files)
            state.withLock { state in
                state.clock.observe(clock.latest)
                // An in-process refresh may have read the new line already.
                guard state.appendGeneration == generation, (state.journalOffsets[generation] ?? 0) == offset else { return }
                state.journalOffsets[generation] = appended.end
                if let journalFile { state.descriptionFiles[journalFile.number] = journalFile }
                state.apply([applied], journalGeneration: generation)
            }
            return result
        }
    }

    /// `change` with its videos' descriptions replaced by references to where the append put them
    /// in journal `generation` (the library keeps no description text), and that journal's file;
    /// `change` as it is when it has no descriptions or the journal cannot be opened for reading.
    private func descriptionsAsReferences(
        _ change: StoreChange, _ appended: Journal.AppendedLine, generation: Int, files: [UInt32: StoreFile]
    ) -> (StoreChange, StoreFile?) {
        guard !appended.descriptionRanges.isEmpty,
              let opened = try? StoreFile(path: journal.path(generation)) else { return (change, nil) }
        let file = opened.reused(from: files)
        var applied = change
        for (index, range) in appended.descriptionRanges {
            guard let length = UInt32(exactly: range.count) else { continue }
            applied.videos[index].descriptionReference = DescriptionReference(file: file.number, offset: UInt64(range.lowerBound), length: length)
        }
        return (applied, file)
    }

    /// Runs a transaction's body on a copy of the state; the copy is gone when this returns, so
    /// applying the change afterwards mutates the state's library in place.
    private static func run<T>(_ body: (inout StoreTransaction) -> T, on state: StoreState) -> (T, StoreChange, HybridLogicalClock) {
        var transaction = StoreTransaction(library: state.library, sync: state.sync, clock: state.clock)
        let result = body(&transaction)
        transaction.change.addedVideoIDs = Array(Set(transaction.change.videos.lazy.map(\.id).filter { state.library.video($0) == nil })).sorted()
        if transaction.sync != state.sync, transaction.change.sync == nil {
            transaction.change.syncChange = SyncChange(from: state.sync, to: transaction.sync)
        }
        return (result, transaction.change, transaction.clock)
    }

    /// Writes `change` as one journal line (a convenience over ``transaction(_:)``).
    public func apply(_ change: StoreChange) throws(StoreError) {
        try transaction { $0.change = change }
    }

    /// Picks up changes other processes made since the last look. Cheap when nothing changed.
    /// - Returns: whether anything changed.
    @discardableResult
    public func refresh() throws(StoreError) -> Bool {
        try catchUp(holdingFileLock: false)
    }

    /// Runs `body` holding the file lock, after this process's earlier writers.
    func exclusively<T: Sendable>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try writerQueue.withLock { (_: inout Void) throws(StoreError) -> T in
            try fileLock.withLock(timeout: options.lockTimeout, body)
        }
    }

    func checkWritable() throws(StoreError) {
        if let reason = readOnlyReason { throw .readOnly(reason: reason) }
    }

    /// Brings the state up to date with the disk: a replaced snapshot (or a journal newer than the
    /// one being appended to) means a full reload, a grown journal means reading its new lines.
    /// The disk is read without the mutex; the result is applied under it only if no one else
    /// applied it meanwhile.
    @discardableResult
    func catchUp(holdingFileLock: Bool) throws(StoreError) -> Bool {
        let (identities, generation, offset) = state.withLock { ($0.identities, $0.appendGeneration, $0.journalOffsets[$0.appendGeneration] ?? 0) }
        let replaced = StorePart.allCases.contains { part in
            FileIO.identity(directory.appendingPathComponent(part.fileName).path) != identities[part]
        } || access(journal.path(generation + 1), F_OK) == 0
        if replaced {
            var reloaded = try StoreLoader(directory: directory.path, journal: journal).load(holdingLock: holdingFileLock)
            return state.withLock { state in
                guard state.identities != reloaded.identities || state.newestJournal != reloaded.newestJournal else { return false }
                Self.assignDeviceIDIfMissing(&reloaded, previous: state.sync.deviceID)
                reloaded.shownNotices = state.shownNotices
                reloaded.notices = state.notices + reloaded.notices.filter { !state.shownNotices.contains($0) && !state.notices.contains($0) }
                state = reloaded
                return true
            }
        }
        guard let identity = FileIO.identity(journal.path(generation)), identity.size > Int64(offset) else { return false }
        let result = try journal.read(generation, from: offset, reusing: state.withLock { $0.descriptionFiles })
        return state.withLock { state in
            guard state.appendGeneration == generation, (state.journalOffsets[generation] ?? 0) == offset else { return false }
            state.journalOffsets[generation] = result.endOffset
            state.apply(result, journalGeneration: generation)
            let name = "journal-\(generation).jsonl"
            if !result.damagedLines.isEmpty {
                state.notices.append("\(name): skipped \(result.damagedLines.count) damaged line(s) written by another process; \(StoreLoader.keptAside)")
                state.damagedInputs.insert(journal.path(generation))
            }
            if !result.notes.isEmpty {
                state.notices.append("\(name): \(result.notes.summary); \(StoreLoader.keptAside)")
                state.damagedInputs.insert(journal.path(generation))
            }
            return !result.changes.isEmpty
        }
    }

    /// Gives a store without a device id (a new one) an id in memory; the next write saves it.
    static func assignDeviceIDIfMissing(_ state: inout StoreState, previous: String?) {
        guard state.sync.deviceID.isEmpty else { return }
        state.sync.deviceID = previous.flatMap { $0.isEmpty ? nil : $0 } ?? newDeviceID()
        state.deviceIDUnsaved = true
    }

    private static func newDeviceID() -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "device"
        return "\(host)-\(UUID().uuidString.prefix(8).lowercased())"
    }
}
