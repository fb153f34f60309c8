import Foundation
import MeTubeCore

/// Encodes the snapshot files written by compaction and restore.
enum SnapshotEncoding {
    /// The three snapshot files for `library` and `sync`, all claiming `generation`.
    static func files(library: Library, sync: SyncSnapshot, generation: Int) throws(StoreError) -> [(StorePart, Data)] {
        let encoder = StoreCoding.encoder()
        do {
            let channels = library.channels.values.sorted { $0.id < $1.id }
            let marks = library.marks.values.sorted { $0.videoID < $1.videoID }
            return [
                (.library, try encoder.encode(LibraryFile(schemaVersion: currentSchemaVersion, generation: generation, channels: channels, videos: library.videos))),
                (.marks, try encoder.encode(MarksFile(schemaVersion: currentSchemaVersion, generation: generation, marks: marks))),
                (.sync, try encoder.encode(SyncFile(schemaVersion: currentSchemaVersion, generation: generation, sync: sync))),
            ]
        } catch {
            throw .writeFailed(path: "snapshot", reason: "could not encode: \(error)")
        }
    }
}
