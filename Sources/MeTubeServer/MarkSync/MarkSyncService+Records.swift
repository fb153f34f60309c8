import Foundation
import MeTubeAPI

extension MarkSyncService {
    /// `records/modify`: applies the operations in order, one result per operation; with
    /// `atomic` (the default) nothing is written unless every operation succeeds.
    ///
    /// `bodyBytes` is the size of the request body; records are measured against the record size
    /// limit only when the body could hold one over it.
    public func modifyRecords(_ request: MarkSyncRecordsModifyRequest, bodyBytes: Int, caller: MarkSyncCaller) async throws -> MarkSyncRecordsResponse {
        try checkCount(request.operations.count, of: "operations")
        // The names looked up: a name the operation will refuse is not sent to the storage.
        let names = request.operations.compactMap { $0.record.recordName.flatMap { Self.isAcceptedName($0) ? $0 : nil } }
        let indexByName = try Self.indexByName(request.operations, count: names.count)
        let zoneID = request.zoneID ?? MarkSyncZoneID(zoneName: MarkSyncZoneID.defaultZoneName)
        let measuresSize = bodyBytes > configuration.maxRecordBytes
        let now = nowMillis
        // The operations are worked out from a read snapshot, off the single writer; the write
        // transaction takes that plan as it is when the zone has not changed since (its
        // sequence names every change of its records), and works them out again otherwise.
        // Requests to one zone take turns, so that they rarely do.
        let plan = try await zoneTurns.inTurn(for: MarkSyncZoneKey(database: caller.database, zoneName: zoneID.zoneName)) {
            let planned = try? await readingTransaction { transaction in
                try modifyPlan(request, names: names, indexByName: indexByName, zone: requireZone(zoneID, caller: caller, in: transaction), measuresSize: measuresSize, caller: caller, now: now, in: transaction)
            }
            return try await repository.transaction { transaction in
                let zone = try requireZone(zoneID, caller: caller, in: transaction)
                let plan = try planned.flatMap { try $0.holds(for: zone, in: transaction) ? $0 : nil }
                    ?? modifyPlan(request, names: names, indexByName: indexByName, zone: zone, measuresSize: measuresSize, caller: caller, now: now, in: transaction)
                try plan.write(to: transaction)
                return plan
            }
        }
        let results = plan.outcomes.indices.map { index -> MarkSyncRecordResult in
            switch plan.outcomes[index] {
            case .failure(let error):
                return .failure(error)
            case .record(let written) where plan.isRejected:
                return .failure(MarkSyncRecordError(recordName: plan.records[written].name, .atomicError, "Not applied: another operation of this atomic request failed"))
            case .record(let written):
                return .success(recordDictionary(plan.records[written], zone: plan.zone, caller: caller, desiredKeys: request.operations[index].desiredKeys ?? request.desiredKeys))
            }
        }
        return MarkSyncRecordsResponse(records: results)
    }

    /// The operation naming each record; BAD_REQUEST when two name the same one.
    private static func indexByName(_ operations: [MarkSyncRecordsModifyRequest.Operation], count: Int) throws -> [String: Int] {
        var indexByName: [String: Int] = [:]
        indexByName.reserveCapacity(count)
        for index in operations.indices {
            guard let name = operations[index].record.recordName else { continue }
            guard indexByName.updateValue(index, forKey: name) == nil else {
                throw MarkSyncErrorBody(.badRequest, "Only one operation per record is allowed in a request")
            }
        }
        return indexByName
    }

    /// What `request` does to `zone` as `transaction` sees it: each operation's record (with its
    /// sequence) or error. `names` are the records the operations name, `indexByName` the
    /// operation naming each.
    private func modifyPlan(
        _ request: MarkSyncRecordsModifyRequest, names: [String], indexByName: [String: Int], zone: StoredMarkSyncZone, measuresSize: Bool,
        caller: MarkSyncCaller, now: Int64, in transaction: any MarkSyncTransaction
    ) throws -> RecordsModifyPlan {
        // Operations by index, not copied: an operation is a large value, and copying each twice
        // showed in the server's profile under load.
        let operations = request.operations
        let existing = try transaction.records(named: names, in: zone.key) { stored in
            indexByName[stored.name].map { Self.readsStoredFields(operations[$0], of: stored, zone: zone) } ?? true
        }
        var sequence = zone.lastSequence
        var ledger = MarkSyncQuotaLedger(userID: caller.user.id, defaults: configuration.quota)
        var records: [StoredMarkSyncRecord] = []
        var outcomes: [RecordsModifyPlan.Outcome] = []
        records.reserveCapacity(operations.count)
        outcomes.reserveCapacity(operations.count)
        for index in operations.indices {
            switch apply(operations[index], existing: operations[index].record.recordName.flatMap { existing[$0] }, zone: zone, caller: caller, now: now) {
            case .failure(let error):
                outcomes.append(.failure(error))
            case .success(var record):
                let storedFields = try MarkSyncFieldsCodec.stored(record.fields)
                record.storedFields = storedFields
                record.storedBytes = MarkSyncRecordBytes.of(name: record.name, type: record.type, storedFieldBytes: storedFields.count)
                if measuresSize, let error = sizeError(of: record) {
                    outcomes.append(.failure(error))
                } else if let excess = try ledger.take(Self.usageChange(to: record, from: existing[record.name]), in: transaction) {
                    outcomes.append(.failure(MarkSyncRecordError(recordName: record.name, .quotaExceeded, "Record '\(record.name)' is not written: \(excess)")))
                } else {
                    sequence += 1
                    record.sequence = sequence
                    outcomes.append(.record(records.count))
                    records.append(record)
                }
            }
        }
        let isRejected = (request.atomic ?? true) && records.count < outcomes.count
        return RecordsModifyPlan(zone: zone, records: records, outcomes: outcomes, isRejected: isRejected, lastSequence: sequence, ledger: ledger)
    }

    /// What writing `record` in place of `stored` changes in its user's usage.
    private static func usageChange(to record: StoredMarkSyncRecord, from stored: StoredMarkSyncRecord?) -> MarkSyncUsage {
        let live: (StoredMarkSyncRecord?) -> Int64 = { $0.map { $0.isDeleted ? 0 : 1 } ?? 0 }
        return MarkSyncUsage(records: live(record) - live(stored), bytes: record.storedBytes - (stored?.storedBytes ?? 0))
    }

    /// `records/lookup`: the requested records, or NOT_FOUND for each missing one.
    public func lookupRecords(_ request: MarkSyncRecordsLookupRequest, caller: MarkSyncCaller) async throws -> MarkSyncRecordsResponse {
        guard request.records.count <= configuration.maxRecordsPerResponse else {
            throw MarkSyncErrorBody.limitExceeded("\(request.records.count) records requested; the limit is \(configuration.maxRecordsPerResponse)")
        }
        let zoneID = request.zoneID ?? MarkSyncZoneID(zoneName: MarkSyncZoneID.defaultZoneName)
        let results = try await readingTransaction { transaction in
            let zone = try requireZone(zoneID, caller: caller, in: transaction)
            let found = try transaction.records(named: request.records.map(\.recordName).filter(Self.isAcceptedName), in: zone.key)
            return request.records.map { lookup -> MarkSyncRecordResult in
                guard !lookup.recordName.isEmpty else {
                    return .failure(MarkSyncRecordError(recordName: lookup.recordName, .badRequest, "recordName must not be empty"))
                }
                if let error = Self.nameError(lookup.recordName, of: "recordName") {
                    return .failure(MarkSyncRecordError(recordName: lookup.recordName, .badRequest, error))
                }
                guard let record = found[lookup.recordName], !record.isDeleted else {
                    return .failure(MarkSyncRecordError(recordName: lookup.recordName, .notFound, "Record '\(lookup.recordName)' does not exist"))
                }
                return .success(recordDictionary(record, zone: zone, caller: caller, desiredKeys: lookup.desiredKeys ?? request.desiredKeys))
            }
        }
        return MarkSyncRecordsResponse(records: results)
    }

    /// The zone a record request addresses, or the request-level error why it cannot be used.
    func requireZone(_ zoneID: MarkSyncZoneID, caller: MarkSyncCaller, in transaction: any MarkSyncTransaction) throws -> StoredMarkSyncZone {
        if let error = accessError(for: zoneID, caller: caller) {
            throw MarkSyncErrorBody(error.serverErrorCode, error.reason)
        }
        guard let zone = try existingZone(MarkSyncZoneKey(database: caller.database, zoneName: zoneID.zoneName), in: transaction) else {
            throw MarkSyncErrorBody(.zoneNotFound, zoneNotFound(zoneID).reason)
        }
        return zone
    }

    /// The record dictionary of a stored record, its fields cut to `desiredKeys` when given.
    func recordDictionary(_ record: StoredMarkSyncRecord, zone: StoredMarkSyncZone, caller: MarkSyncCaller, desiredKeys: [String]?) -> MarkSyncRecord {
        if record.isDeleted { return MarkSyncRecord(recordName: record.name, deleted: true) }
        var fields = record.fields
        let owner = caller.user.recordName
        if let desiredKeys {
            let wanted = Set(desiredKeys)
            fields = fields.filter { wanted.contains($0.key) }
        }
        return MarkSyncRecord(
            recordName: record.name,
            recordType: record.type,
            recordChangeTag: MarkSyncVersionTokens.changeTag(zone: zone, sequence: record.sequence),
            fields: fields,
            created: MarkSyncRecordStamp(timestamp: record.createdMillis, userRecordName: owner),
            modified: MarkSyncRecordStamp(timestamp: record.modifiedMillis, userRecordName: owner)
        )
    }

    /// The record one operation leaves behind (its sequence still to be assigned), or the
    /// operation's error.
    private func apply(
        _ operation: MarkSyncRecordsModifyRequest.Operation, existing: StoredMarkSyncRecord?, zone: StoredMarkSyncZone, caller: MarkSyncCaller, now: Int64
    ) -> Result<StoredMarkSyncRecord, MarkSyncRecordError> {
        let sent = operation.record
        let type = operation.operationType
        let live = existing.flatMap { $0.isDeleted ? nil : $0 }
        func failure(_ code: MarkSyncErrorCode, _ reason: String, serverRecord: MarkSyncRecord? = nil) -> Result<StoredMarkSyncRecord, MarkSyncRecordError> {
            .failure(MarkSyncRecordError(recordName: sent.recordName, code, reason, serverRecord: serverRecord))
        }
        guard type == .create || sent.recordName != nil else {
            return failure(.badRequest, "recordName is required for \(type.rawValue)")
        }
        if sent.recordName?.isEmpty == true {
            return failure(.badRequest, "recordName must not be empty")
        }
        if let error = Self.nameError(sent.recordName ?? "", of: "recordName") ?? Self.nameError(sent.recordType ?? "", of: "recordType")
            ?? sent.fields?.keys.lazy.compactMap({ Self.nameError($0, of: "A field name") }).first {
            return failure(.badRequest, error)
        }
        if let mismatch = sent.fields?.first(where: { $0.value.typeMismatch != nil }) {
            return failure(.badRequest, "Field '\(mismatch.key)': \(mismatch.value.typeMismatch ?? "")")
        }
        if type.requiresChangeTag {
            guard let tag = sent.recordChangeTag else {
                return failure(.badRequest, "recordChangeTag is required for \(type.rawValue)")
            }
            guard let live else { return failure(.notFound, "Record '\(sent.recordName ?? "")' does not exist") }
            guard tag == MarkSyncVersionTokens.changeTag(zone: zone, sequence: live.sequence) else {
                return failure(
                    .conflict, "recordChangeTag '\(tag)' is older than the server's; retry with the latest tag",
                    serverRecord: recordDictionary(live, zone: zone, caller: caller, desiredKeys: nil))
            }
        }
        let sentFields = Self.storedFields(sent.fields ?? [:])
        switch type {
        case .create, .forceUpdate, .forceReplace, .update, .replace:
            if type == .create, let live {
                return failure(.exists, "Record '\(sent.recordName ?? "")' already exists", serverRecord: recordDictionary(live, zone: zone, caller: caller, desiredKeys: nil))
            }
            guard let recordType = sent.recordType ?? live?.type, !recordType.isEmpty else {
                return failure(.badRequest, "recordType is required to create a record")
            }
            var fields = sentFields
            if let live, type == .update || type == .forceUpdate {
                fields = live.fields
                for (name, field) in sent.fields ?? [:] { fields[name] = field.value == .null ? nil : field.typed }
            }
            return .success(StoredMarkSyncRecord(
                name: sent.recordName ?? MarkSyncIdentifier.random(), type: recordType, fields: fields, sequence: 0,
                createdMillis: live?.createdMillis ?? now, modifiedMillis: now))
        case .delete, .forceDelete:
            guard let live else { return failure(.notFound, "Record '\(sent.recordName ?? "")' does not exist") }
            return .success(StoredMarkSyncRecord(
                name: live.name, type: live.type, fields: [:], sequence: 0, createdMillis: live.createdMillis, modifiedMillis: now, isDeleted: true))
        }
    }

    /// The fields a record keeps of `sent`: without nulls, each tagged with its type. Fields that
    /// already are so are kept as they came.
    private static func storedFields(_ sent: [String: MarkSyncField]) -> [String: MarkSyncField] {
        guard sent.values.contains(where: { $0.value == .null || $0.type == nil }) else { return sent }
        return sent.filter { $0.value.value != .null }.mapValues(\.typed)
    }

    /// Whether working out `operation` on the stored record needs its fields: to merge them
    /// (`update`), or to answer them as the server's record (a `create` of an existing record, a
    /// stale change tag). A tombstone's fields are never needed.
    private static func readsStoredFields(_ operation: MarkSyncRecordsModifyRequest.Operation, of stored: StoredMarkSyncRecord, zone: StoredMarkSyncZone) -> Bool {
        guard !stored.isDeleted else { return false }
        switch operation.operationType {
        case .create, .update, .forceUpdate: return true
        case .replace, .delete: return operation.record.recordChangeTag != MarkSyncVersionTokens.changeTag(zone: zone, sequence: stored.sequence)
        case .forceReplace, .forceDelete: return false
        }
    }

    /// QUOTA_EXCEEDED when the record's fields encode to more bytes than allowed.
    private func sizeError(of record: StoredMarkSyncRecord) -> MarkSyncRecordError? {
        let size = (try? JSONEncoder().encode(record.fields).count) ?? Int.max
        guard size > configuration.maxRecordBytes else { return nil }
        return MarkSyncRecordError(recordName: record.name, .quotaExceeded, "Record is \(size) bytes; the limit is \(configuration.maxRecordBytes)")
    }
}

/// The outcome of a `records/modify` request worked out from one state of its zone.
private struct RecordsModifyPlan: Sendable {
    /// What one operation comes to.
    enum Outcome: Sendable {
        /// The record it leaves behind: its index in ``RecordsModifyPlan/records``.
        case record(Int)
        /// Why it fails.
        case failure(MarkSyncRecordError)
    }

    /// The zone as the plan found it.
    let zone: StoredMarkSyncZone
    /// The records the operations leave behind, sequences assigned, in the order of their
    /// operations: what is written, as it is, without copying each out of a per-operation result.
    let records: [StoredMarkSyncRecord]
    /// Per operation: its record or its error.
    let outcomes: [Outcome]
    /// Whether an atomic request failed as a whole, so nothing is written.
    let isRejected: Bool
    /// The zone's sequence once the records are written.
    let lastSequence: Int64
    /// What the records take from their user's quota, and the usage that was worked out from.
    let ledger: MarkSyncQuotaLedger

    /// Whether the plan still holds in `transaction`: it found `zone` as it is, and its user's
    /// usage too, when it took any of it.
    func holds(for zone: StoredMarkSyncZone, in transaction: any MarkSyncTransaction) throws -> Bool {
        guard self.zone == zone else { return false }
        guard let start = ledger.start else { return true }
        return try transaction.usage(ofUser: ledger.userID) == start
    }

    /// Writes the records, the zone's new sequence and its user's usage, unless the request was
    /// rejected.
    func write(to transaction: any MarkSyncTransaction) throws {
        guard !isRejected else { return }
        try transaction.saveRecords(records, in: zone.key)
        var written = zone
        written.lastSequence = lastSequence
        try transaction.saveZone(written)
        try ledger.record(in: transaction)
    }
}
