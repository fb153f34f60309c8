import Foundation

extension SyncEngine {
    /// The health of `service` as far as the engine knows.
    public func health(of service: RemoteService) -> ServiceHealth {
        health[service] ?? .unknown
    }

    /// `service` answered: online, and no more probing.
    func reachable(_ service: RemoteService) {
        probers.removeValue(forKey: service)?.cancel()
        setHealth(.online, of: service)
    }

    /// `service` could not be reached: offline (since the time it was first found so), and a
    /// health probe with backoff (`probeDelays`, by default the configuration's) until it
    /// answers, then a sync after `reconnectDebounce`.
    func unreachable(_ service: RemoteService, probeDelays: [Duration]? = nil) {
        let since = health(of: service).offlineSince ?? savedOfflineSince(of: service) ?? Date()
        setHealth(.offline(.init(since: since)), of: service)
        guard probers[service] == nil, !isShutDown, let check = probe(of: service) else { return }
        probers[service] = probing(service, delays: probeDelays ?? configuration.probeDelays, check: check)
    }

    /// Records a new health on `events`, and the mark-sync service's in the store too (so
    /// `metube status` can show it).
    func setHealth(_ state: ServiceHealth, of service: RemoteService) {
        guard health(of: service) != state else { return }
        health[service] = state
        if service == .markSyncService {
            let since = state.offlineSince
            if store.syncSnapshot().markSyncOfflineSince != since { _ = try? store.transaction { $0.sync.markSyncOfflineSince = since } }
        }
        continuation.yield(.health(service, state))
    }

    private func savedOfflineSince(of service: RemoteService) -> Date? {
        service == .markSyncService ? store.syncSnapshot().markSyncOfflineSince : nil
    }

    /// One health check of `service`, or nil when it has nothing to probe.
    private func probe(of service: RemoteService) -> (@Sendable () async -> Bool)? {
        switch service {
        case .videoSource:
            guard let source else { return nil }
            return {
                do throws(SyncError) {
                    try await source.probe()
                    return true
                } catch {
                    return false
                }
            }
        case .markSyncService:
            guard let markSync else { return nil }
            return {
                do throws(MarkSyncRequestFailure) {
                    try await markSync.probe()
                    return true
                } catch {
                    return false
                }
            }
        }
    }

    /// A task that checks `service` after each of the probe delays (the last one repeating)
    /// until a check passes, then waits `reconnectDebounce` and asks for a sync. It stays in
    /// `probers` until that sync is asked for, so `shutdown()` can stop it at any point.
    private func probing(_ service: RemoteService, delays: [Duration], check: @escaping @Sendable () async -> Bool) -> Task<Void, Never> {
        let delays = delays.isEmpty ? [Duration.seconds(30)] : delays
        let debounce = configuration.reconnectDebounce
        return Task { [weak self, sleep] in
            var attempt = 0
            while true {
                do {
                    try await sleep(delays[min(attempt, delays.count - 1)])
                } catch {
                    return
                }
                attempt += 1
                guard let answered = await self?.probeOnce(service, check: check) else { return }
                if answered { break }
            }
            do {
                try await sleep(debounce)
            } catch {
                return
            }
            await self?.reconnected(service)
        }
    }

    /// Runs one check while the health says probing; true when the service answered.
    private func probeOnce(_ service: RemoteService, check: @Sendable () async -> Bool) async -> Bool {
        guard let since = health(of: service).offlineSince, !Task.isCancelled else { return false }
        setHealth(.offline(.init(since: since, probing: true)), of: service)
        let answered = await check()
        guard !Task.isCancelled else { return false }
        setHealth(answered ? .online : .offline(.init(since: since)), of: service)
        return answered
    }

    /// A probe of `service` passed and the debounce is over: the prober ends, and a sync of
    /// that service follows.
    private func reconnected(_ service: RemoteService) {
        guard !Task.isCancelled, probers[service] != nil else { return }
        probers[service] = nil
        enqueue(service == .videoSource ? .all : .markSync, waiter: nil)
    }
}
