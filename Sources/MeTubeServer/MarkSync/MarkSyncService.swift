import MeTubeAPI
import MeTubeCore

/// Who is asking: the authenticated user and the private database the request addresses.
public struct MarkSyncCaller: Sendable, Hashable {
    /// The authenticated user.
    public var user: MarkSyncUser
    /// The user's private database in the request's container and environment.
    public var database: MarkSyncDatabaseKey

    /// Creates a caller.
    public init(user: MarkSyncUser, database: MarkSyncDatabaseKey) {
        self.user = user
        self.database = database
    }
}

/// The mark-sync service's behaviour, independent of HTTP: authentication, throttling and every
/// zone, record and change operation, over a ``MarkSyncRepository``.
///
/// Failures of a whole request are thrown as ``MarkSyncErrorBody``; failures of one record or zone
/// come back inside the response.
public struct MarkSyncService: Sendable {
    /// The storage.
    public let repository: any MarkSyncRepository
    /// Limits and containers.
    public let configuration: MarkSyncConfiguration
    private let throttle: MarkSyncThrottle
    private let lastSeen = MarkSyncLastSeenRecorder()
    private let clock: @Sendable () -> Int64

    /// Creates a service over `repository`; `clock` gives the time stamped on records, in
    /// milliseconds since 1970.
    public init(repository: any MarkSyncRepository, configuration: MarkSyncConfiguration = .init(), clock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMillis) {
        self.repository = repository
        self.configuration = configuration
        self.throttle = MarkSyncThrottle(rate: configuration.requestsPerSecond, burst: configuration.burst)
        self.clock = clock
    }

    /// Adds a user and returns the token to give them; only its hash is stored.
    public func addUser(name: String) async throws -> String {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }) else {
            throw MarkSyncErrorBody(.badRequest, "A user name is one or more letters, digits, '-', '_' or '.'")
        }
        let token = MarkSyncTokenHasher.newToken()
        guard try await repository.addUser(name: name, tokenHash: MarkSyncTokenHasher.hash(token)) != nil else {
            throw MarkSyncErrorBody(.exists, "User '\(name)' already exists")
        }
        return token
    }

    /// Checks the container's API token and the user's web auth token and admits the request
    /// through the user's throttle. A missing or unknown user token is AUTHENTICATION_REQUIRED
    /// (421) with the sign-in `redirectURL`, which CloudKit JS takes as "signed out"; a wrong API
    /// token is AUTHENTICATION_FAILED (401).
    public func authenticate(container: String, environment: String, apiToken: String?, webAuthToken: String?) async throws -> MarkSyncCaller {
        guard let apiToken, !apiToken.isEmpty else {
            throw MarkSyncErrorBody(.authenticationRequired, "The request needs the container's API token as ckAPIToken", redirectURL: configuration.signInURL)
        }
        guard let expected = configuration.apiTokens[container], MarkSyncTokenHasher.matches(apiToken, expected) else {
            throw MarkSyncErrorBody(.authenticationFailed, "ckAPIToken is not valid for container '\(container)'")
        }
        guard let webAuthToken, !webAuthToken.isEmpty else {
            throw MarkSyncErrorBody(.authenticationRequired, "The request needs a user token: an Authorization: Bearer header, or ckWebAuthToken",
                                  redirectURL: configuration.signInURL)
        }
        guard let user = try await repository.user(tokenHash: MarkSyncTokenHasher.hash(webAuthToken)) else {
            throw MarkSyncErrorBody(.authenticationRequired, "The user token is not valid (wrong, or its user was removed); sign in again",
                                  redirectURL: configuration.signInURL)
        }
        let now = clock()
        if lastSeen.shouldRecord(user.id, atMillis: now) {
            try await repository.recordSeen(userID: user.id, atMillis: now)
        }
        if let retryAfter = throttle.admit(user.id) {
            throw MarkSyncErrorBody(.throttled, "Too many requests; retry after \(retryAfter) s", retryAfter: retryAfter)
        }
        return MarkSyncCaller(user: user, database: MarkSyncDatabaseKey(userID: user.id, container: container, environment: environment))
    }

    /// `zones/modify`: creates (idempotently) or deletes zones, one result per operation.
    public func modifyZones(_ request: MarkSyncZonesModifyRequest, caller: MarkSyncCaller) async throws -> MarkSyncZonesResponse {
        try checkCount(request.operations.count, of: "operations")
        let names = request.operations.map { MarkSyncExactName($0.zone.zoneID.zoneName) }
        guard Set(names).count == names.count else {
            throw MarkSyncErrorBody(.badRequest, "Only one operation per zone is allowed in a request")
        }
        let keys = request.operations.map { MarkSyncZoneKey(database: caller.database, zoneName: $0.zone.zoneID.zoneName) }
        // A zone the caller may not name (another owner's, a NUL in its name) is refused from the
        // request alone and never read: PostgreSQL would refuse the whole statement over a NUL.
        let refusals = request.operations.map { accessError(for: $0.zone.zoneID, caller: caller) }
        let readable = keys.indices.filter { refusals[$0] == nil }
        let deleting = readable.filter { request.operations[$0].operationType == .delete }.map { keys[$0] }
        let reads = MarkSyncZonesReads(zones: readable.map { keys[$0] }, deleting: deleting, userID: caller.user.id)
        let results = try await repository.modifyZones(reads) { state in
            var ledger = MarkSyncQuotaLedger(start: state.usage, defaults: configuration.quota)
            var created: [StoredMarkSyncZone] = []
            var deleted: [MarkSyncZoneKey] = []
            let results = request.operations.indices.map { index -> MarkSyncZoneResult in
                let (operation, key) = (request.operations[index], keys[index])
                let zoneID = operation.zone.zoneID
                if let error = refusals[index] { return .failure(error) }
                switch operation.operationType {
                case .create:
                    if let zone = state.zones[key] { return .success(zoneDictionary(zone, caller: caller)) }
                    if zoneID.zoneName != MarkSyncZoneID.defaultZoneName, let excess = ledger.take(MarkSyncUsage(zones: 1)) {
                        return .failure(MarkSyncZoneError(zoneID: zoneID, .quotaExceeded, "Zone '\(zoneID.zoneName)' is not created: \(excess)"))
                    }
                    let zone = Self.newZone(key)
                    created.append(zone)
                    return .success(zoneDictionary(zone, caller: caller))
                case .delete:
                    guard zoneID.zoneName != MarkSyncZoneID.defaultZoneName else {
                        return .failure(MarkSyncZoneError(zoneID: zoneID, .badRequest, "The default zone cannot be deleted"))
                    }
                    guard state.zones[key] != nil else { return .failure(zoneNotFound(zoneID)) }
                    _ = ledger.take(-((state.holdings[key] ?? .zero) + MarkSyncUsage(zones: 1)))
                    deleted.append(key)
                    return .success(MarkSyncZone(zoneID: MarkSyncZoneID(zoneName: zoneID.zoneName, ownerRecordName: caller.user.recordName)))
                }
            }
            return (results, MarkSyncZonesWrites(created: created, deleted: deleted, usage: ledger.delta, userID: caller.user.id))
        }
        return MarkSyncZonesResponse(zones: results)
    }

    /// `zones/list`: a page of the caller's zones by name, the default zone included, with the
    /// marker of the next page while more follow.
    public func listZones(_ page: MarkSyncZoneListPage = .init(), caller: MarkSyncCaller) async throws -> MarkSyncZonesResponse {
        let limit = page.limit ?? configuration.maxRecordsPerResponse
        _ = try await storedZone(MarkSyncZoneKey(database: caller.database, zoneName: MarkSyncZoneID.defaultZoneName), caller: caller)
        let zones = try await repository.zones(in: caller.database, after: page.after, limit: limit + 1)
        let shown = zones.prefix(limit)
        return MarkSyncZonesResponse(
            zones: shown.map { .success(zoneDictionary($0, caller: caller)) },
            continuationMarker: zones.count > limit ? shown.last.map { MarkSyncZoneListPage.marker(after: $0.key.zoneName) } : nil)
    }

    /// `zones/lookup`: the requested zones, read in one transaction, or ZONE_NOT_FOUND for each
    /// missing one; the default zone is created on first use, as ``storedZone(_:records:caller:)`` does.
    public func lookupZones(_ request: MarkSyncZonesLookupRequest, caller: MarkSyncCaller) async throws -> MarkSyncZonesResponse {
        try checkCount(request.zones.count, of: "zones")
        let refusals = request.zones.map { accessError(for: $0, caller: caller) }
        let names = zip(request.zones, refusals).compactMap { zoneID, refusal in refusal == nil ? zoneID.zoneName : nil }
        var stored = names.isEmpty ? [] : try await repository.zones(in: caller.database, named: names)
        let defaultZone = MarkSyncZoneKey(database: caller.database, zoneName: MarkSyncZoneID.defaultZoneName)
        if stored.indices.contains(where: { names[$0] == defaultZone.zoneName && stored[$0] == nil }),
           let created = try await storedZone(defaultZone, caller: caller)?.zone {
            for index in stored.indices where names[index] == defaultZone.zoneName { stored[index] = created }
        }
        var looked = stored.makeIterator()
        let results = zip(request.zones, refusals).map { zoneID, refusal -> MarkSyncZoneResult in
            if let refusal { return .failure(refusal) }
            guard case .some(.some(let zone)) = looked.next() else { return .failure(zoneNotFound(zoneID)) }
            return .success(zoneDictionary(zone, caller: caller))
        }
        return MarkSyncZonesResponse(zones: results)
    }

    /// The longest zone name, record name, record type or field name, in UTF-8 bytes.
    public static let maxNameBytes = 255

    /// Why `name` cannot be a `what`, or nil when it can: it is too long, or it holds a NUL
    /// character (which SQLite would cut the name at and PostgreSQL refuses in text).
    static func nameError(_ name: String, of what: String) -> String? {
        if name.utf8.count > maxNameBytes { return "\(what) is longer than \(maxNameBytes) bytes" }
        if name.utf8.contains(0) { return "\(what) holds a NUL character" }
        return nil
    }

    /// Whether `name` can be a zone name, record name, record type or field name.
    static func isAcceptedName(_ name: String) -> Bool {
        nameError(name, of: "name") == nil
    }

    /// The current time for record stamps.
    var nowMillis: Int64 { clock() }

    /// Throws `LIMIT_EXCEEDED` when a request lists more than the allowed number of items.
    func checkCount(_ count: Int, of what: String) throws {
        guard count <= configuration.maxOperationsPerRequest else {
            throw MarkSyncErrorBody.limitExceeded("\(count) \(what) in one request; the limit is \(configuration.maxOperationsPerRequest)")
        }
    }

    /// ACCESS_DENIED when `zoneID` names another user's zone, BAD_REQUEST for an empty name.
    func accessError(for zoneID: MarkSyncZoneID, caller: MarkSyncCaller) -> MarkSyncZoneError? {
        if let owner = zoneID.ownerRecordName, owner != caller.user.recordName {
            return MarkSyncZoneError(zoneID: zoneID, .accessDenied, "Zone '\(zoneID.zoneName)' of '\(owner)' is not yours")
        }
        if zoneID.zoneName.isEmpty {
            return MarkSyncZoneError(zoneID: zoneID, .badRequest, "zoneName must not be empty")
        }
        if let error = Self.nameError(zoneID.zoneName, of: "zoneName") {
            return MarkSyncZoneError(zoneID: zoneID, .badRequest, error)
        }
        return nil
    }

    /// The stored zone and its records that `selection` picks, read in one transaction; the
    /// default zone is created on first use (in a write of its own, then read).
    func storedZone(
        _ key: MarkSyncZoneKey, records selection: MarkSyncRecordSelection = .none, caller: MarkSyncCaller
    ) async throws -> (zone: StoredMarkSyncZone, records: [StoredMarkSyncRecord])? {
        if let found = try await repository.zone(key, records: selection) { return found }
        guard key.zoneName == MarkSyncZoneID.defaultZoneName else { return nil }
        let reads = MarkSyncModifyReads(zone: key, names: [], userID: caller.user.id) { _, _ in false }
        try await repository.modify(reads) { state in
            ((), state.zone == nil ? MarkSyncModifyWrites(zone: Self.newZone(key), records: [], usage: .zero, userID: caller.user.id) : nil)
        }
        return try await repository.zone(key, records: selection)
    }

    /// The zone dictionary of a stored zone.
    func zoneDictionary(_ zone: StoredMarkSyncZone, caller: MarkSyncCaller) -> MarkSyncZone {
        MarkSyncZone(
            zoneID: MarkSyncZoneID(zoneName: zone.key.zoneName, ownerRecordName: caller.user.recordName),
            syncToken: MarkSyncVersionTokens.syncToken(zone: zone, sequence: zone.lastSequence),
            atomic: true
        )
    }

    /// The error for a zone that does not exist.
    func zoneNotFound(_ zoneID: MarkSyncZoneID) -> MarkSyncZoneError {
        MarkSyncZoneError(zoneID: zoneID, .zoneNotFound, "Zone '\(zoneID.zoneName)' does not exist")
    }

    /// A zone about to be created, with an incarnation of its own.
    static func newZone(_ key: MarkSyncZoneKey) -> StoredMarkSyncZone {
        StoredMarkSyncZone(key: key, incarnation: Int64.random(in: 1...(1 << 40)))
    }
}
