import Foundation
import MeTubeAPI

extension MarkSyncService {
    /// `records/modify`: applies the operations in order, one result per operation; with
    /// `atomic` (the default) nothing is written unless every operation succeeds.
    ///
    /// The request is decided once, inside its write transaction
    /// (``MarkSyncRepository/modify(_:deciding:)``): the repository reads the zone, the records
    /// the operations name and the user's usage, `modifyPlan` decides from them (change tags,
    /// quotas, sequences), and the repository writes the plan's records and commits. What
    /// depends on the request alone (the stored form of the fields an operation writes as sent)
    /// is worked out before, outside the transaction.
    ///
    /// `bodyBytes` is the size of the request body; records are measured against the record size
    /// limit only when the body could hold one over it.
    public func modifyRecords(_ request: MarkSyncRecordsModifyRequest, bodyBytes: Int, caller: MarkSyncCaller) async throws -> MarkSyncRecordsResponse {
        try checkCount(request.operations.count, of: "operations")
        // The names looked up: a name the operation will refuse is not sent to the storage.
        let names = request.operations.compactMap { $0.record.recordName.flatMap { Self.isAcceptedName($0) ? $0 : nil } }
        let indexByName = try Self.indexByName(request.operations, count: names.count)
        let zoneID = request.zoneID ?? MarkSyncZoneID(zoneName: MarkSyncZoneID.defaultZoneName)
        if let error = accessError(for: zoneID, caller: caller) {
            throw MarkSyncErrorBody(error.serverErrorCode, error.reason)
        }
        let measuresSize = bodyBytes > configuration.maxRecordBytes
        let now = nowMillis
        let operations = request.operations
        let encoded = Self.encodedAsSent(operations)
        let reads = MarkSyncModifyReads(zone: MarkSyncZoneKey(database: caller.database, zoneName: zoneID.zoneName), names: names, userID: caller.user.id) { stored, zone in
            indexByName[MarkSyncExactName(stored.name)].map { Self.readsStoredFields(operations[$0], of: stored, zone: zone) } ?? true
        }
        let plan = try await repository.modify(reads) { state in
            let plan = try modifyPlan(request, encoded: encoded, measuresSize: measuresSize, caller: caller, now: now, state: state)
            return (plan, plan.writes)
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
    private static func indexByName(_ operations: [MarkSyncRecordsModifyRequest.Operation], count: Int) throws -> [MarkSyncExactName: Int] {
        var indexByName: [MarkSyncExactName: Int] = [:]
        indexByName.reserveCapacity(count)
        for index in operations.indices {
            guard let name = operations[index].record.recordName else { continue }
            guard indexByName.updateValue(index, forKey: MarkSyncExactName(name)) == nil else {
                throw MarkSyncErrorBody(.badRequest, "Only one operation per record is allowed in a request")
            }
        }
        return indexByName
    }

    /// Per operation, the stored form of the fields its record gets when it writes them as sent
    /// (`create`, `replace`, `forceReplace`), whatever the zone holds; nil for the others and for
    /// fields that do not encode (the plan meets their error).
    private static func encodedAsSent(_ operations: [MarkSyncRecordsModifyRequest.Operation]) -> [Data?] {
        operations.map { operation in
            switch operation.operationType {
            case .create, .replace, .forceReplace: try? MarkSyncFieldsCodec.stored(storedFields(operation.record.fields ?? [:]))
            case .update, .forceUpdate, .delete, .forceDelete: nil
            }
        }
    }

    /// What `request` does to the zone and records of `state`: each operation's record (with its
    /// sequence) or error, and the writes. The zone is created when it is the default zone and
    /// missing; another missing zone is ZONE_NOT_FOUND. `encoded` holds the stored fields of
    /// records written as sent (``encodedAsSent(_:)``).
    private func modifyPlan(
        _ request: MarkSyncRecordsModifyRequest, encoded: [Data?], measuresSize: Bool, caller: MarkSyncCaller, now: Int64, state: MarkSyncModifyState
    ) throws -> RecordsModifyPlan {
        let zoneID = request.zoneID ?? MarkSyncZoneID(zoneName: MarkSyncZoneID.defaultZoneName)
        let created = state.zone == nil && zoneID.zoneName == MarkSyncZoneID.defaultZoneName
        guard let zone = state.zone ?? (created ? Self.newZone(MarkSyncZoneKey(database: caller.database, zoneName: zoneID.zoneName)) : nil) else {
            throw MarkSyncErrorBody(.zoneNotFound, zoneNotFound(zoneID).reason)
        }
        // Operations by index, not copied: an operation is a large value, and copying each twice
        // showed in the server's profile under load.
        let operations = request.operations
        let existing = state.records
        var sequence = zone.lastSequence
        var ledger = MarkSyncQuotaLedger(start: state.usage, defaults: configuration.quota)
        var records: [StoredMarkSyncRecord] = []
        var outcomes: [RecordsModifyPlan.Outcome] = []
        records.reserveCapacity(operations.count)
        outcomes.reserveCapacity(operations.count)
        for index in operations.indices {
            switch apply(operations[index], existing: operations[index].record.recordName.flatMap { existing[MarkSyncExactName($0)] }, zone: zone, caller: caller, now: now) {
            case .failure(let error):
                outcomes.append(.failure(error))
            case .success(var record):
                let storedFields = try encoded[index] ?? MarkSyncFieldsCodec.stored(record.fields)
                record.storedFields = storedFields
                record.storedBytes = MarkSyncRecordBytes.of(name: record.name, type: record.type, storedFieldBytes: storedFields.count)
                if measuresSize, let error = sizeError(of: record) {
                    outcomes.append(.failure(error))
                } else if let excess = ledger.take(Self.usageChange(to: record, from: existing[MarkSyncExactName(record.name)])) {
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
        var written = zone
        written.lastSequence = isRejected ? zone.lastSequence : sequence
        let writes = isRejected && !created ? nil : MarkSyncModifyWrites(
            zone: written, records: isRejected ? [] : records, usage: isRejected ? .zero : ledger.delta, userID: caller.user.id)
        return RecordsModifyPlan(zone: zone, records: records, outcomes: outcomes, isRejected: isRejected, writes: writes)
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
        let (zone, records) = try await requireZone(zoneID, records: .named(request.records.map(\.recordName).filter(Self.isAcceptedName)), caller: caller)
        let found = Dictionary(records.map { (MarkSyncExactName($0.name), $0) }) { first, _ in first }
        let results = request.records.map { lookup -> MarkSyncRecordResult in
            guard !lookup.recordName.isEmpty else {
                return .failure(MarkSyncRecordError(recordName: lookup.recordName, .badRequest, "recordName must not be empty"))
            }
            if let error = Self.nameError(lookup.recordName, of: "recordName") {
                return .failure(MarkSyncRecordError(recordName: lookup.recordName, .badRequest, error))
            }
            guard let record = found[MarkSyncExactName(lookup.recordName)], !record.isDeleted else {
                return .failure(MarkSyncRecordError(recordName: lookup.recordName, .notFound, "Record '\(lookup.recordName)' does not exist"))
            }
            return .success(recordDictionary(record, zone: zone, caller: caller, desiredKeys: lookup.desiredKeys ?? request.desiredKeys))
        }
        return MarkSyncRecordsResponse(records: results)
    }

    /// The zone a record request addresses and its records that `selection` picks, read in one
    /// transaction, or the request-level error why the zone cannot be used.
    func requireZone(
        _ zoneID: MarkSyncZoneID, records selection: MarkSyncRecordSelection = .none, caller: MarkSyncCaller
    ) async throws -> (zone: StoredMarkSyncZone, records: [StoredMarkSyncRecord]) {
        if let error = accessError(for: zoneID, caller: caller) {
            throw MarkSyncErrorBody(error.serverErrorCode, error.reason)
        }
        guard let found = try await storedZone(MarkSyncZoneKey(database: caller.database, zoneName: zoneID.zoneName), records: selection, caller: caller) else {
            throw MarkSyncErrorBody(.zoneNotFound, zoneNotFound(zoneID).reason)
        }
        return found
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

/// The outcome of a `records/modify` request, decided once from its zone as its write
/// transaction found it.
private struct RecordsModifyPlan: Sendable {
    /// What one operation comes to.
    enum Outcome: Sendable {
        /// The record it leaves behind: its index in ``RecordsModifyPlan/records``.
        case record(Int)
        /// Why it fails.
        case failure(MarkSyncRecordError)
    }

    /// The zone as the plan found it (or created it).
    let zone: StoredMarkSyncZone
    /// The records the operations leave behind, sequences assigned, in the order of their
    /// operations: what is written, as it is, without copying each out of a per-operation result.
    let records: [StoredMarkSyncRecord]
    /// Per operation: its record or its error.
    let outcomes: [Outcome]
    /// Whether an atomic request failed as a whole, so none of its records is written.
    let isRejected: Bool
    /// What the repository writes: the records, the zone's new sequence and its user's usage;
    /// nil when nothing changes.
    let writes: MarkSyncModifyWrites?
}
