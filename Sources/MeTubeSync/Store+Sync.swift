import MeTubeStore

extension Store {
    /// Runs a store transaction for a sync, reporting a store failure as `SyncError.store`.
    func syncTransaction<T: Sendable>(_ body: (inout StoreTransaction) -> T) throws(SyncError) -> T {
        do {
            return try transaction(body)
        } catch {
            throw .store(error)
        }
    }
}
