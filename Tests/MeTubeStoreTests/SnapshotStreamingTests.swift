import Foundation
import MeTubeCore
import MeTubeJSON
@testable import MeTubeStore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

extension SnapshotEncoding {
    /// Snapshot `part` encoded whole in memory: the writer's buffer never fills, so the document
    /// is handed over in one piece when it is finished.
    static func inMemory(_ part: StorePart, of library: Library, sync: SyncSnapshot, generation: Int) throws(StoreError) -> Data {
        var bytes = Data()
        var writer = StoreJSONWriter(bufferSize: .max) { piece in
            bytes.append(contentsOf: piece)
            return nil
        }
        try write(part, of: library, sync: sync, generation: generation, to: &writer)
        return bytes
    }

    /// The three snapshot files encoded in memory, in the order compaction stages them.
    static func files(library: Library, sync: SyncSnapshot, generation: Int) throws(StoreError) -> [(StorePart, Data)] {
        var files: [(StorePart, Data)] = []
        for part in StorePart.allCases { files.append((part, try inMemory(part, of: library, sync: sync, generation: generation))) }
        return files
    }
}

/// Snapshots are written through a bounded buffer flushed to the file as it fills; the file is
/// byte for byte what the whole document encoded in memory is, wherever the pieces are cut.
@Suite struct SnapshotStreamingTests {
    /// Streams `part` into a staged file beside `directory/name` through a buffer of `bufferSize`
    /// bytes, and reads the file back.
    private func streamed(_ part: StorePart, of library: Library, sync: SyncSnapshot, generation: Int, bufferSize: Int, in directory: URL) throws -> Data {
        let target = directory.appendingPathComponent(part.fileName).path
        let temporary = try FileIO.stage(for: target) { fd throws(StoreError) in
            var writer = JSONWriter(fd: fd, path: target, bufferSize: bufferSize)
            try SnapshotEncoding.write(part, of: library, sync: sync, generation: generation, to: &writer)
        }
        defer { unlink(temporary) }
        return try Data(contentsOf: URL(fileURLWithPath: temporary))
    }

    @Test func aStreamedSnapshotIsTheInMemoryEncodingWhereverTheBufferIsCut() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var generator = StoredValueGenerator(seed: 0x7374_7265_616D)
        for round in 0..<40 {
            // Given a random library (strings full of escapes, non-ASCII and long runs)
            var library = Library(channels: generator.list(12) { $0.channel() }, videos: generator.list(30) { $0.video() },
                                  marks: generator.list(30) { $0.mark() })
            for position in generator.list(10, { $0.position() }) { library.apply(position) }
            let sync = generator.sync()
            let generation = Int(generator.int64() >> 1)
            // When each snapshot is streamed through a small buffer of random size (so the pieces
            // are cut inside strings and escapes), and through the default one
            let bufferSize = 1 + generator.below(generator.chance(50) ? 16 : 4_096)
            for part in StorePart.allCases {
                let whole = try SnapshotEncoding.inMemory(part, of: library, sync: sync, generation: generation)
                // Then the files are the in-memory encoding, byte for byte
                #expect(try streamed(part, of: library, sync: sync, generation: generation, bufferSize: bufferSize, in: directory.url) == whole,
                        "round \(round), \(part.fileName), buffer \(bufferSize)")
                #expect(try streamed(part, of: library, sync: sync, generation: generation, bufferSize: StoreJSONWriter.defaultBufferSize, in: directory.url) == whole)
            }
        }
    }

    @Test func everyCutInsideAnEscapeGivesTheSameFile() throws {
        // Given a video whose strings are all escapes of every kind, two to six bytes long
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let title = "\"\\\n\r\t\u{1}\u{1F}é🚀/\u{0}"
        let library = Library(channels: [Channel(id: "UC\u{7}", title: title)],
                              videos: [Video(id: "v\\\"", channelID: "UC\u{7}", title: title, published: Date(timeIntervalSince1970: 1), description: title)])
        let whole = try SnapshotEncoding.inMemory(.library, of: library, sync: SyncSnapshot(deviceID: "d"), generation: 1)
        // When it is streamed through every buffer size up to past the whole document
        for bufferSize in 1...(whole.count + 1) {
            // Then each file is the in-memory encoding
            #expect(try streamed(.library, of: library, sync: SyncSnapshot(deviceID: "d"), generation: 1, bufferSize: bufferSize, in: directory.url) == whole, "buffer \(bufferSize)")
        }
        #expect(try SnapshotDecoding.library(whole).videos == library.videos)
    }

    @Test func theHeadStreamsAsItEncodesInMemory() throws {
        // Given a library larger than the head
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var generator = StoredValueGenerator(seed: 0x6865_6164)
        let library = Library(channels: generator.list(5) { $0.channel() }, videos: (0..<60).map { _ in generator.video() }, marks: generator.list(40) { $0.mark() })
        let identities = [StorePart.library: FileIdentity(device: 1, inode: 2, size: 3, changeSeconds: 4, changeNanos: 5)]
        func head(bufferSize: Int) throws -> Data {
            var bytes = Data()
            var writer = StoreJSONWriter(bufferSize: bufferSize) { piece in
                bytes.append(contentsOf: piece)
                return nil
            }
            try SnapshotEncoding.writeHead(library, videoLimit: 25, generation: 9, identities: identities, to: &writer)
            return bytes
        }
        // When it is written in one piece and through small buffers
        let whole = try head(bufferSize: .max)
        // Then the pieces make up the same document
        for bufferSize in [1, 2, 3, 7, 64, 1_000] { #expect(try head(bufferSize: bufferSize) == whole, "buffer \(bufferSize)") }
        #expect(try JSONSerialization.jsonObject(with: whole) is [String: Any])
    }

    @Test func aFailedWriteIsThrownAndTheStagedFileRemoved() throws {
        // Given an output that fails (a full device) and a staging folder
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        defer { close(full) }
        var generator = StoredValueGenerator(seed: 3)
        let library = Library(channels: generator.list(5) { $0.channel() }, videos: (0..<20).map { _ in generator.video() })
        // When a snapshot is written to it through a small buffer
        var writer = JSONWriter(fd: full, path: "library.json", bufferSize: 64)
        // Then the failure comes out as writeFailed naming the file, with the system's reason
        #expect(throws: StoreError.writeFailed(path: "library.json", reason: errnoText(ENOSPC))) {
            try SnapshotEncoding.write(.library, of: library, sync: SyncSnapshot(deviceID: "d"), generation: 1, to: &writer)
        }
        // And a staged file whose writing fails leaves nothing behind
        let target = directory.url.appendingPathComponent("library.json").path
        #expect(throws: StoreError.writeFailed(path: target, reason: errnoText(ENOSPC))) {
            _ = try FileIO.stage(for: target) { _ throws(StoreError) in
                var failing = JSONWriter(fd: full, path: target, bufferSize: 64)
                try SnapshotEncoding.write(.library, of: library, sync: SyncSnapshot(deviceID: "d"), generation: 1, to: &failing)
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}
