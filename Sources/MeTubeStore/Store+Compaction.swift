import Foundation
import MeTubeCore
import MeTubeJSON
#if canImport(Glibc)
import Glibc
#endif

extension Store {
    /// Folds the journal into new snapshots, keeps the old ones as a rotating backup, and starts a
    /// new journal; also repairs what an open found damaged (keeping `.corrupt-<time>` copies).
    ///
    /// Encoding and writing the snapshots happen on a copy, outside every lock: marks made
    /// meanwhile (by this process or another) go on being appended, and are carried into the new
    /// journal when the new snapshots are switched in. The lock is held only to take the copy and
    /// for the switch (a few renames and fsyncs).
    public func compact() throws(StoreError) {
        do {
            try compactOnce()
        } catch {
            state.withLock { $0.compactionFailedAtOffset = $0.journalOffsets[$0.appendGeneration] ?? 0 }
            throw error
        }
    }

    private func compactOnce() throws(StoreError) {
        try checkWritable()
        let plan = try exclusively { () throws(StoreError) -> SnapshotPlan in
            try catchUp(holdingFileLock: true)
            return takePlan()
        }
        let staged = try stage(plan)
        do {
            try exclusively { () throws(StoreError) in
                try catchUp(holdingFileLock: true)
                try finish(plan, staged: staged)
            }
        } catch {
            Self.discard(staged)
            throw error
        }
    }

    /// ``compact()`` for a caller already holding the file lock.
    func compactHoldingFileLock() throws(StoreError) {
        let plan = takePlan()
        let staged = try stage(plan)
        do throws(StoreError) { try finish(plan, staged: staged) } catch {
            Self.discard(staged)
            throw error
        }
    }

    /// Replaces everything with `library` and `sync` as new snapshots, all or nothing: the three
    /// files are written and fsync'd beside the old ones first, then switched in; a failure before
    /// the switch changes nothing, one during it puts the old files back.
    func replaceContents(with library: Library, sync: SyncSnapshot) throws(StoreError) {
        try checkWritable()
        try exclusively { () throws(StoreError) in
            try catchUp(holdingFileLock: true)
            var plan = takePlan()
            plan.library = library
            plan.sync = sync
            plan.replacesContents = true
            let staged = try stage(plan)
            do throws(StoreError) { try finish(plan, staged: staged) } catch {
                Self.discard(staged)
                throw error
            }
        }
    }

    private func takePlan() -> SnapshotPlan {
        state.withLock { state in
            let generation = state.appendGeneration
            return SnapshotPlan(library: state.library, sync: state.sync, generation: generation, offset: state.journalOffsets[generation] ?? 0,
                                identities: state.identities, damagedInputs: state.damagedInputs, descriptions: DescriptionLiterals(files: state.descriptionFiles))
        }
    }

    private func path(_ part: StorePart) -> String { directory.appendingPathComponent(part.fileName).path }

    /// Encodes the plan and writes each part to an fsync'd temporary file beside it, streaming
    /// (the largest snapshot never sits in memory whole).
    private func stage(_ plan: SnapshotPlan) throws(StoreError) -> [(StorePart, String)] {
        var staged: [(StorePart, String)] = []
        for part in StorePart.allCases {
            let target = path(part)
            do {
                let temporary = try FileIO.stage(for: target) { fd throws(StoreError) in
                    var writer = JSONWriter(fd: fd, path: target)
                    try SnapshotEncoding.write(part, of: plan.library, sync: plan.sync, generation: plan.newGeneration, descriptions: plan.descriptions, to: &writer)
                }
                staged.append((part, temporary))
            } catch {
                Self.discard(staged)
                throw error
            }
        }
        return staged
    }

    private static func discard(_ staged: [(StorePart, String)]) {
        for (_, temporary) in staged { unlink(temporary) }
    }

    /// Switches the staged snapshots in, holding the file lock: carries lines appended since the
    /// plan into the next journal, keeps damaged inputs aside, backs up the current snapshots,
    /// renames the new ones in, and updates the state. When another compaction switched first, the
    /// staged files are dropped (that one folded in everything this one would have).
    private func finish(_ plan: SnapshotPlan, staged: [(StorePart, String)]) throws(StoreError) {
        let (generation, offset, identities, damaged, minimum) = state.withLock {
            ($0.appendGeneration, $0.journalOffsets[$0.appendGeneration] ?? 0, $0.identities, $0.damagedInputs, $0.generations.values.min() ?? 0)
        }
        guard generation == plan.generation, identities == plan.identities else {
            if plan.replacesContents { throw .writeFailed(path: directory.path, reason: "the store changed during the restore; try again") }
            Self.discard(staged)
            return
        }
        let carried = plan.replacesContents || offset <= plan.offset ? Data() : try journal.bytes(generation, from: plan.offset, to: offset)
        try keepAside(damaged.union(plan.damagedInputs))
        try backUpCurrentSnapshots(name: minimum)
        let newGeneration = plan.newGeneration
        if !carried.isEmpty { try FileIO.replaceAtomically(journal.path(newGeneration), with: carried) }
        try switchIn(staged)
        writeHead(of: plan.library, generation: newGeneration)
        state.withLock { state in
            for part in StorePart.allCases {
                state.generations[part] = newGeneration
                state.identities[part] = FileIO.identity(path(part))
            }
            state.journalOffsets = [newGeneration: carried.count]
            state.newestJournal = newGeneration
            state.deviceIDUnsaved = false
            state.compactionFailedAtOffset = nil
            state.damagedInputs.subtract(damaged.union(plan.damagedInputs))
            if plan.replacesContents {
                state.library = plan.library
                state.sync = plan.sync
            }
        }
        pruneBackupsAndJournals(current: newGeneration)
        FileIO.removeAbandonedTemporaries(in: directory.path)
    }

    /// Renames the staged files over the live ones. Should a rename fail part way, the parts
    /// already switched get their previous files back, so the store is never a mix.
    private func switchIn(_ staged: [(StorePart, String)]) throws(StoreError) {
        var previous: [(StorePart, String?)] = []
        defer { for case let (_, link?) in previous { unlink(link) } }
        for (part, _) in staged {
            let link = path(part) + ".previous-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            if Glibc.link(path(part), link) == 0 {
                previous.append((part, link))
            } else if errno == ENOENT {
                previous.append((part, nil))
            } else {
                throw .writeFailed(path: path(part), reason: errnoText())
            }
        }
        for (index, (part, temporary)) in staged.enumerated() {
            guard rename(temporary, path(part)) != 0 else { continue }
            let failure = errno
            for (switched, link) in previous.prefix(index) {
                if let link { rename(link, path(switched)) } else { unlink(path(switched)) }
            }
            Self.discard(Array(staged[index...]))
            try? FileIO.syncDirectory(of: path(part))
            throw .writeFailed(path: path(part), reason: errnoText(failure))
        }
        try FileIO.syncDirectory(of: path(.library))
    }

    /// Keeps each damaged input as `<name>.corrupt-<time>` (a hard link: the name it had is
    /// replaced by the switch, the bytes stay as they were found).
    private func keepAside(_ paths: Set<String>) throws(StoreError) {
        guard !paths.isEmpty else { return }
        let stamp = StoreLoader.timestamp()
        for source in paths.sorted() {
            let target = "\(source).corrupt-\(stamp)"
            guard access(target, F_OK) != 0 else { continue }
            if link(source, target) != 0, errno != ENOENT { throw .writeFailed(path: target, reason: errnoText()) }
        }
        try FileIO.syncDirectory(of: directory.path + "/.")
    }

    private var backupsDirectory: URL { directory.appendingPathComponent("backups", isDirectory: true) }

    private func backUpCurrentSnapshots(name: Int) throws(StoreError) {
        let target = backupsDirectory.appendingPathComponent(String(name), isDirectory: true).path
        guard access(target, F_OK) != 0 else { return }
        try FileIO.makeDirectory(target)
        for part in StorePart.allCases {
            if link(path(part), "\(target)/\(part.fileName)") != 0, errno != ENOENT {
                throw .writeFailed(path: target, reason: errnoText())
            }
        }
        try FileIO.syncDirectory(of: target + "/.")
    }

    /// Drops the oldest backups beyond ``StoreOptions/backupsKept``, and the journals no backup
    /// needs; moves each journal the live snapshots already fold in into the backup it follows
    /// (that backup plus this journal gives the live state), so the store's directory holds the
    /// live snapshots and the journal being appended to, not a copy of them in journal lines.
    private func pruneBackupsAndJournals(current: Int) {
        let loader = StoreLoader(directory: directory.path, journal: journal)
        var backups = loader.backupGenerations()
        while backups.count > options.backupsKept {
            try? FileManager.default.removeItem(at: backupsDirectory.appendingPathComponent(String(backups.removeFirst())))
        }
        let oldestNeeded = backups.first ?? Int.max
        for generation in journal.generations() where generation < current {
            if generation < oldestNeeded {
                unlink(journal.path(generation))
            } else if backups.contains(generation) {
                moveIntoBackup(generation)
            }
        }
    }

    /// Moves journal `generation` into `backups/<generation>/`: a hard link there (made durable)
    /// first, then the store's name removed, so a crash between the two leaves both names of the
    /// same bytes, and the next compaction finishes the move.
    private func moveIntoBackup(_ generation: Int) {
        let target = journal.backupPath(generation)
        guard link(journal.path(generation), target) == 0 || errno == EEXIST else { return }
        guard (try? FileIO.syncDirectory(of: target)) != nil else { return }
        unlink(journal.path(generation))
        try? FileIO.syncDirectory(of: journal.path(generation))
    }
}
