import MeTubeCore
import MeTubeStore

extension SyntheticLibrary {
    /// Writes the library into `store` as a sync would, in journal lines of `batch` videos (a line
    /// of every video at once would be hundreds of megabytes), then compacts it.
    public func fill(_ store: Store, batch: Int = 10_000) throws {
        try store.apply(StoreChange(marks: marks(), channels: channels()))
        for start in stride(from: 0, to: videoCount, by: batch) {
            try store.apply(StoreChange(videos: (start..<min(start + batch, videoCount)).map(video)))
        }
        try store.compact()
    }
}
