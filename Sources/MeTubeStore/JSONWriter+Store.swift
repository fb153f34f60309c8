import MeTubeCore
import MeTubeJSON

/// The writer of the store's snapshot files and journal lines: its output fails with a
/// ``StoreError``.
typealias StoreJSONWriter = JSONWriter<StoreError>

extension JSONWriter where Failure == StoreError {
    /// A writer appending to the open file `fd`; a failed write is reported against `path`.
    init(fd: Int32, path: String, bufferSize: Int = Self.defaultBufferSize) {
        self.init(bufferSize: bufferSize) { chunk in
            FileIO.writeAll(fd, chunk).map { .writeFailed(path: path, reason: errnoText($0)) }
        }
    }

    /// A hybrid timestamp as `JSONEncoder` would write it.
    mutating func timestamp(_ value: HybridTimestamp) {
        object {
            $0.field("counter", value.counter)
            $0.field("millis", value.millis)
        }
    }

    /// A playback position as `JSONEncoder` would write it (sorted keys, no nil fields).
    mutating func position(_ position: PlaybackPosition) {
        object {
            $0.field("deviceID", position.deviceID)
            if let duration = position.duration { $0.field("duration", duration) }
            $0.key("hlc")
            $0.timestamp(position.hlc)
            $0.field("seconds", position.seconds)
            $0.field("syncState", position.syncState.rawValue)
            $0.field("videoID", position.videoID)
        }
    }

    /// A watch-later queue entry as `JSONEncoder` would write it (sorted keys, no nil fields).
    mutating func queueEntry(_ entry: QueueEntry) {
        object {
            $0.field("deviceID", entry.deviceID)
            $0.key("hlc")
            $0.timestamp(entry.hlc)
            if let queuedAt = entry.queuedAt { $0.field("queuedAt", queuedAt) }
            $0.field("syncState", entry.syncState.rawValue)
            $0.field("videoID", entry.videoID)
        }
    }

    /// Writes `name` and the server's version of a mark (left out when `nil`).
    mutating func serverVersion(_ name: String, _ version: ServerVersion?) {
        guard let version else { return }
        key(name)
        object {
            $0.field("changeTag", version.changeTag)
            $0.field("status", version.status.rawValue)
            if let hlc = version.hlc {
                $0.key("hlc")
                $0.timestamp(hlc)
            }
            $0.field("deviceID", version.deviceID)
        }
    }
}
