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
public final class Store: Sendable {
    /// The directory holding the store's files.
    public let directory: URL
    /// How the store was opened.
    public let options: StoreOptions
    private let journal: Journal
    private let fileLock: FileLock
    private let state: Mutex<StoreState>

    private init(directory: URL, options: StoreOptions, state: StoreState) {
        self.directory = directory
        self.options = options
        journal = Journal(directory: directory.path)
        fileLock = FileLock(path: directory.appendingPathComponent("lock").path)
        self.state = Mutex(state)
    }

    /// Opens the store in `directory`, creating it when missing.
    ///
    /// Damaged files are moved aside and recovered (see ``takeNotices()``); a store written by a
    /// newer schema opens read-only (see ``readOnlyReason``).
    public static func open(at directory: URL, options: StoreOptions = StoreOptions()) throws(StoreError) -> Store {
        try FileIO.makeDirectory(directory.path)
        let journal = Journal(directory: directory.path)
        let loader = StoreLoader(directory: directory.path, journal: journal)
        let lock = FileLock(path: directory.appendingPathComponent("lock").path)
        let loaded = try lock.withLock(timeout: options.lockTimeout) { () throws(StoreError) in try loader.load(holdingLock: true) }
        let store = Store(directory: directory, options: options, state: loaded)
        if loaded.readOnlyReason == nil, loaded.sync.deviceID.isEmpty || !loaded.notices.isEmpty {
            try store.compact()
        }
        return store
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
            defer { state.notices.removeAll() }
            return state.notices
        }
    }

    /// Whether the journal has grown enough that ``compact()`` is worth running.
    public var needsCompaction: Bool {
        state.withLock { state in
            let generation = state.appendGeneration
            return (state.journalOffsets[generation] ?? 0) >= options.compactionThreshold
        }
    }

    /// Makes a mark on this device durable (journal append + fsync) and returns it.
    @discardableResult
    public func mark(_ videoID: String, as status: WatchStatus) throws(StoreError) -> Mark {
        try transaction { $0.mark(videoID, as: status) }
    }

    /// Runs a read-modify-write under the store's lock: `body` sees the current library and sync
    /// state (other processes' changes included) and stages a change, which is written as one
    /// journal line before this returns.
    public func transaction<T: Sendable>(_ body: (inout StoreTransaction) -> T) throws(StoreError) -> T {
        try state.withLock { (state: inout StoreState) throws(StoreError) -> T in
            if let reason = state.readOnlyReason { throw .readOnly(reason: reason) }
            return try fileLock.withLock(timeout: options.lockTimeout) { () throws(StoreError) -> T in
                try refreshHoldingLocks(&state)
                let (result, change, clock) = Self.run(body, on: state)
                guard !change.isEmpty else { return result }
                let generation = state.appendGeneration
                state.journalOffsets[generation] = try journal.append(change, generation: generation)
                state.clock = clock
                state.apply([change], journalGeneration: generation)
                return result
            }
        }
    }

    /// Runs a transaction's body on a copy of the state; the copy is gone when this returns, so
    /// applying the change afterwards mutates the state's library in place.
    private static func run<T>(_ body: (inout StoreTransaction) -> T, on state: StoreState) -> (T, StoreChange, HybridLogicalClock) {
        var transaction = StoreTransaction(library: state.library, sync: state.sync, clock: state.clock)
        let result = body(&transaction)
        if transaction.sync != state.sync { transaction.change.sync = transaction.sync }
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
        try state.withLock { (state: inout StoreState) throws(StoreError) -> Bool in
            try refreshHoldingLocks(&state, holdingFileLock: false)
        }
    }

    /// Brings `state` up to date with the disk: a replaced snapshot means a full reload, a grown
    /// journal means reading its new lines.
    @discardableResult
    private func refreshHoldingLocks(_ state: inout StoreState, holdingFileLock: Bool = true) throws(StoreError) -> Bool {
        let replaced = StorePart.allCases.contains { part in
            FileIO.identity(directory.appendingPathComponent(part.fileName).path) != state.identities[part]
        }
        if replaced {
            let loader = StoreLoader(directory: directory.path, journal: journal)
            var reloaded = try loader.load(holdingLock: holdingFileLock)
            reloaded.notices = state.notices + reloaded.notices
            state = reloaded
            return true
        }
        let generation = state.appendGeneration
        let offset = state.journalOffsets[generation] ?? 0
        guard let identity = FileIO.identity(journal.path(generation)), identity.size > Int64(offset) else { return false }
        let result = try journal.read(generation, from: offset)
        state.journalOffsets[generation] = result.endOffset
        state.apply(result.changes, journalGeneration: generation)
        if !result.damagedLines.isEmpty {
            state.notices.append("journal-\(generation).jsonl: skipped \(result.damagedLines.count) damaged line(s) written by another process")
        }
        return !result.changes.isEmpty
    }

    /// Folds the journal into new snapshots, keeps the old ones as a rotating backup, and starts a
    /// new journal. Runs under the lock; the key path never waits for it unless it runs.
    public func compact() throws(StoreError) {
        try state.withLock { (state: inout StoreState) throws(StoreError) in
            if let reason = state.readOnlyReason { throw .readOnly(reason: reason) }
            try fileLock.withLock(timeout: options.lockTimeout) { () throws(StoreError) in
                try refreshHoldingLocks(&state)
                var sync = state.sync
                if sync.deviceID.isEmpty { sync.deviceID = Self.newDeviceID() }
                try writeSnapshots(&state, library: state.library, sync: sync)
            }
        }
    }

    /// Replaces everything with `library` and `sync` as new snapshots (the old ones become a backup).
    func replaceContents(with library: Library, sync: SyncSnapshot) throws(StoreError) {
        try state.withLock { (state: inout StoreState) throws(StoreError) in
            if let reason = state.readOnlyReason { throw .readOnly(reason: reason) }
            try fileLock.withLock(timeout: options.lockTimeout) { () throws(StoreError) in
                try refreshHoldingLocks(&state)
                try writeSnapshots(&state, library: library, sync: sync)
            }
        }
    }

    /// Writes every part as generation `appendGeneration + 1` with a backup of the current files,
    /// then drops backups and journals no longer needed.
    private func writeSnapshots(_ state: inout StoreState, library: Library, sync: SyncSnapshot) throws(StoreError) {
        let generation = state.appendGeneration + 1
        let encoded = try SnapshotEncoding.files(library: library, sync: sync, generation: generation)
        try backUpCurrentSnapshots(name: state.generations.values.min() ?? 0)
        for (part, data) in encoded {
            let path = directory.appendingPathComponent(part.fileName).path
            try FileIO.replaceAtomically(path, with: data)
            state.generations[part] = generation
            state.identities[part] = FileIO.identity(path)
        }
        state.library = library
        state.sync = sync
        state.journalOffsets = [generation: 0]
        pruneBackupsAndJournals(current: generation)
    }

    private var backupsDirectory: URL { directory.appendingPathComponent("backups", isDirectory: true) }

    private func backUpCurrentSnapshots(name: Int) throws(StoreError) {
        let target = backupsDirectory.appendingPathComponent(String(name), isDirectory: true).path
        guard access(target, F_OK) != 0 else { return }
        try FileIO.makeDirectory(target)
        for part in StorePart.allCases {
            let source = directory.appendingPathComponent(part.fileName).path
            if link(source, "\(target)/\(part.fileName)") != 0, errno != ENOENT {
                throw .writeFailed(path: target, reason: errnoText())
            }
        }
        try FileIO.syncDirectory(of: target + "/.")
    }

    private func pruneBackupsAndJournals(current: Int) {
        let loader = StoreLoader(directory: directory.path, journal: journal)
        var backups = loader.backupGenerations()
        while backups.count > options.backupsKept {
            try? FileManager.default.removeItem(at: backupsDirectory.appendingPathComponent(String(backups.removeFirst())))
        }
        let oldestNeeded = backups.first ?? Int.max
        for generation in journal.generations() where generation < oldestNeeded && generation != current {
            unlink(journal.path(generation))
        }
    }

    private static func newDeviceID() -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "device"
        return "\(host)-\(UUID().uuidString.prefix(8).lowercased())"
    }
}
