import MeTubeCore

extension Store {
    /// Marks many videos in one write (one journal line): each status's videos, staged in linear
    /// time (``StoreTransaction/mark(_:as:)`` for many videos). What a bulk mark and its undo
    /// write.
    /// - Returns: how many marks were written.
    public func mark(_ batch: [WatchStatus: [String]]) throws(StoreError) -> Int {
        try transaction { transaction in
            batch.sorted { $0.key.rawValue < $1.key.rawValue }.reduce(0) { $0 + transaction.mark($1.value, as: $1.key).count }
        }
    }
}
