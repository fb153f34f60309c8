import MeTubeAPI

/// A ``StatusRepository`` that keeps everything in memory; for tests and benchmarks.
public actor InMemoryStatusRepository: StatusRepository {
    private var state = InMemoryStatusState()

    /// Creates an empty repository.
    public init() {}

    public func addUser(name: String, tokenHash: String) throws -> StatusUser {
        guard !state.users.values.contains(where: { $0.name == name }) else {
            throw StatusErrorBody(.exists, "User '\(name)' already exists")
        }
        let user = StatusUser(id: Int64(state.users.count + 1), name: name)
        state.users[user.id] = user
        state.userIDsByTokenHash[tokenHash] = user.id
        return user
    }

    public func user(tokenHash: String) -> StatusUser? {
        state.userIDsByTokenHash[tokenHash].flatMap { state.users[$0] }
    }

    public func transaction<T: Sendable>(_ body: @Sendable (any StatusTransaction) throws -> T) throws -> T {
        let transaction = InMemoryStatusTransaction()
        swap(&state, &transaction.state)
        defer { swap(&state, &transaction.state) }
        let result = try body(transaction)
        transaction.commit()
        return result
    }
}

/// Everything an ``InMemoryStatusRepository`` holds.
struct InMemoryStatusState {
    var users: [Int64: StatusUser] = [:]
    var userIDsByTokenHash: [String: Int64] = [:]
    var zones: [StatusZoneKey: InMemoryStatusZone] = [:]
}

/// One zone in memory: its records and the order in which they changed.
struct InMemoryStatusZone {
    var zone: StoredStatusZone
    var records: [String: StoredStatusRecord] = [:]
    /// Every change as (sequence, record name), ascending; an entry is stale when the record has
    /// changed since.
    var log: [(sequence: Int64, name: String)] = []
}

/// A transaction over an ``InMemoryStatusState``: reads see the committed state plus this
/// transaction's buffered writes; ``commit()`` applies the writes.
final class InMemoryStatusTransaction: StatusTransaction {
    var state = InMemoryStatusState()
    private var zoneWrites: [StatusZoneKey: StoredStatusZone?] = [:]
    private var zoneWriteOrder: [StatusZoneKey] = []
    private var recordWrites: [StatusZoneKey: [StoredStatusRecord]] = [:]

    func zone(_ key: StatusZoneKey) -> StoredStatusZone? {
        if let written = zoneWrites[key] { return written }
        return state.zones[key]?.zone
    }

    func zones(in database: StatusDatabaseKey) -> [StoredStatusZone] {
        var keys = Set(state.zones.keys.filter { $0.database == database })
        keys.formUnion(zoneWrites.keys.filter { $0.database == database })
        return keys.compactMap(zone).sorted { $0.key.zoneName < $1.key.zoneName }
    }

    func saveZone(_ zone: StoredStatusZone) {
        recordZoneWrite(zone.key, zone)
    }

    func deleteZone(_ key: StatusZoneKey) {
        recordWrites[key] = nil
        recordZoneWrite(key, nil)
    }

    func records(named names: [String], in zone: StatusZoneKey) -> [String: StoredStatusRecord] {
        let current = self.zone(zone)?.incarnation
        let committed = state.zones[zone].flatMap { $0.zone.incarnation == current ? $0.records : nil } ?? [:]
        let written = Dictionary((recordWrites[zone] ?? []).map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        var found: [String: StoredStatusRecord] = [:]
        for name in names {
            if let record = written[name] ?? committed[name] { found[name] = record }
        }
        return found
    }

    func saveRecord(_ record: StoredStatusRecord, in zone: StatusZoneKey) {
        recordWrites[zone, default: []].append(record)
    }

    func changes(in zone: StatusZoneKey, after sequence: Int64, includeDeleted: Bool, limit: Int) -> [StoredStatusRecord] {
        guard let stored = state.zones[zone] else { return [] }
        var low = 0, high = stored.log.count
        while low < high {
            let middle = (low + high) / 2
            if stored.log[middle].sequence <= sequence { low = middle + 1 } else { high = middle }
        }
        var changes: [StoredStatusRecord] = []
        for entry in stored.log[low...] where changes.count < limit {
            guard let record = stored.records[entry.name], record.sequence == entry.sequence else { continue }
            if includeDeleted || !record.isDeleted { changes.append(record) }
        }
        return changes
    }

    /// Applies the buffered writes to ``state``.
    func commit() {
        for key in zoneWriteOrder {
            guard let written = zoneWrites[key] else { continue }
            if let zone = written {
                if state.zones[key]?.zone.incarnation == zone.incarnation {
                    state.zones[key]?.zone = zone
                } else {
                    state.zones[key] = InMemoryStatusZone(zone: zone)
                }
            } else {
                state.zones[key] = nil
            }
        }
        for (key, records) in recordWrites {
            for record in records {
                state.zones[key]?.records[record.name] = record
                state.zones[key]?.log.append((record.sequence, record.name))
            }
        }
    }

    private func recordZoneWrite(_ key: StatusZoneKey, _ zone: StoredStatusZone?) {
        if zoneWrites[key] == nil { zoneWriteOrder.append(key) }
        zoneWrites[key] = .some(zone)
    }
}
