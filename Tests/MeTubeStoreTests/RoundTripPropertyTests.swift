import Foundation
import MeTubeCore
@testable import MeTubeStore
import Testing
import TestSupport

/// Whatever the store writes, it reads back: every field of every stored type, over its full range,
/// through the real writers (journal lines, snapshots) and the real readers.
@Suite struct RoundTripPropertyTests {
    @Test func everyJournalLineReadsBackAsWritten() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let journal = Journal(directory: directory.url.path)
        var generator = StoredValueGenerator(seed: 0x6D65_7475_6265)
        var written: [StoreChange] = []
        for _ in 0..<400 {
            let change = generator.change()
            _ = try journal.append(change, generation: 0)
            written.append(change)
        }
        let read = try journal.read(0, from: 0)
        #expect(read.damagedLines.isEmpty)
        #expect(read.notes.isEmpty, "\(read.notes.summary)")
        #expect(read.changes.count == written.count)
        // Descriptions are read as references into the journal; each one's text is read back.
        let literals = DescriptionLiterals(files: read.descriptionFile.map { [$0.number: $0] } ?? [:])
        let resolved = try read.changes.map { change in
            var change = change
            for index in change.videos.indices {
                if let reference = change.videos[index].descriptionReference { change.videos[index].description = try literals.text(reference) }
            }
            return change
        }
        for (index, pair) in zip(resolved, written).enumerated() where pair.0 != pair.1 {
            Issue.record("line \(index + 1) read back differently:\nwrote \(pair.1)\nread  \(pair.0)")
            break
        }
    }

    @Test func aJournalLineIsPlainJSONThatJSONDecoderReadsAsWritten() throws {
        // Given changes over every field's range, videos included (videos and marks written by
        // the store's own writer, the rest by JSONEncoder)
        var generator = StoredValueGenerator(seed: 0x6A73_6F6E)
        for round in 0..<300 {
            var change = generator.change()
            if generator.chance(50) { change.videos += generator.list(30) { $0.video() } }
            // When one is encoded as a journal line's object
            let object = try SnapshotEncoding.change(change).object
            // Then Foundation's decoder reads it back as it was, and without videos and marks it
            // is exactly JSONEncoder's encoding
            #expect(try StoreCoding.decoder().decode(StoreChange.self, from: object) == change, "round \(round)")
            var rest = change
            rest.videos = []
            rest.marks = []
            #expect(try SnapshotEncoding.change(rest).object == StoreCoding.encoder().encode(rest))
        }
    }

    @Test func aVideoGivesBackItsThumbnailByteForByteAndEncodesAsTheAddressItself() throws {
        var generator = StoredValueGenerator(seed: 0x7468_756D_62)
        let encoder = StoreCoding.encoder()
        for _ in 0..<3_000 {
            let id = generator.chance(50) ? generator.videoID() : generator.string()
            let url = generator.thumbnailURL(for: id)
            var video = Video(id: id, channelID: "UC", title: "t", published: Date(timeIntervalSince1970: 0), thumbnailURL: url)
            #expect(Array(video.thumbnailURL?.utf8 ?? "".utf8) == Array(url.utf8), "\(url)")
            // The encoded form names the address itself, as a plain string field would.
            let plain = try StoreCoding.decoder().decode(PlainThumbnail.self, from: encoder.encode(video))
            #expect(plain.thumbnailURL.map { Array($0.utf8) } == Array(url.utf8))
            #expect(try StoreCoding.decoder().decode(Video.self, from: encoder.encode(video)) == video)
            // Changing the id keeps the address, and equality follows the fields a reader sees.
            let otherID = generator.videoID()
            video.id = otherID
            #expect(Array(video.thumbnailURL?.utf8 ?? "".utf8) == Array(url.utf8), "\(url)")
            #expect(video == Video(id: otherID, channelID: "UC", title: "t", published: Date(timeIntervalSince1970: 0), thumbnailURL: url))
        }
    }

    @Test func everySnapshotReadsBackAsWritten() throws {
        var generator = StoredValueGenerator(seed: 42)
        for round in 0..<60 {
            var library = Library(channels: generator.list(20) { $0.channel() }, videos: generator.list(40) { $0.video() },
                                  marks: generator.list(40) { $0.mark() })
            for position in generator.list(20, { $0.position() }) { library.apply(position) }
            for entry in generator.list(20, { $0.queueEntry() }) { library.apply(entry) }
            let sync = generator.sync()
            let files = try SnapshotEncoding.files(library: library, sync: sync, generation: Int(generator.int64() >> 1))
            let libraryFile = try SnapshotDecoding.library(files[0].1)
            let marksFile = try SnapshotDecoding.marks(files[1].1)
            let syncFile = try StoreCoding.decoder().decode(SyncFile.self, from: files[2].1)
            var read = Library(channels: libraryFile.channels, videos: libraryFile.videos, marks: marksFile.marks)
            for position in marksFile.positions ?? [] { read.apply(position) }
            for entry in marksFile.queue ?? [] { read.apply(entry) }
            #expect(read == library, "round \(round)")
            #expect(syncFile.sync == sync, "round \(round)")
            // The head's reader reads sync.json with the scanner: every field, nothing defaulted.
            var notes = FieldNotes()
            let scanned = try SnapshotDecoding.syncFile(files[2].1, notes: &notes)
            #expect(scanned.sync == sync && scanned.generation == syncFile.generation && notes.isEmpty, "round \(round): \(notes.summary)")
        }
    }

    @Test func aStoreReadsBackEverythingFromItsJournalAndAfterCompaction() throws {
        var generator = StoredValueGenerator(seed: 7)
        for _ in 0..<12 {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let store = try Store.open(at: directory.url)
            var written: [StoreChange] = []
            for _ in 0..<5 {
                written.append(generator.change())
                try store.apply(written[written.count - 1])
            }
            let (library, sync) = (try store.describedLibrary(), store.syncSnapshot())
            // The descriptions held are those written, read on demand (the library holds none).
            let lastDescriptions = Dictionary(written.flatMap(\.videos).map { ($0.id, $0.description) }, uniquingKeysWith: { $1 ?? $0 })
            #expect(store.library().videos.allSatisfy { $0.description == nil })
            for video in library.videos where lastDescriptions[video.id] != nil {
                #expect(video.description == lastDescriptions[video.id]!)
            }
            // Read back from the journal
            let reopened = try Store.open(at: directory.url)
            #expect(reopened.takeNotices().isEmpty)
            #expect(try reopened.describedLibrary() == library)
            #expect(reopened.syncSnapshot() == sync)
            // And from the snapshots after a compaction
            try reopened.compact()
            #expect(try reopened.describedLibrary() == library)
            let compacted = try Store.open(at: directory.url)
            #expect(compacted.takeNotices().isEmpty)
            #expect(try compacted.describedLibrary() == library)
            #expect(compacted.syncSnapshot() == sync)
        }
    }

    @Test func nonFiniteDatesAreWrittenAsTheNearestFiniteOnes() throws {
        let videos = [Double.infinity, -.infinity, .nan].enumerated().map { index, seconds in
            Video(id: "v\(index)", channelID: "UC", title: "t", published: Date(timeIntervalSince1970: seconds))
        }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        try store.apply(StoreChange(videos: videos))
        try store.compact()
        let read = try Store.open(at: directory.url).library()
        #expect(read.video("v0")?.published.timeIntervalSince1970 == .greatestFiniteMagnitude)
        #expect(read.video("v1")?.published.timeIntervalSince1970 == -.greatestFiniteMagnitude)
        #expect(read.video("v2")?.published.timeIntervalSince1970 == 0)
    }

    @Test func countsAtTheEdgesOf24To53BitsSurviveTheJournalAndACompaction() throws {
        // The break of issue 37.3: 123,456,789 ratings read back as 123,404,288, and 2^49 as 2^50.
        let counts = [0, 1, (1 << 24) - 1, 1 << 24, (1 << 24) + 1, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, 1 << 49, 1 << 50,
                      (1 << 53) - 1, 123_456_789, 99_999_999_999]
        let videos = counts.enumerated().map { index, count in
            Video(id: "count\(String(format: "%06d", index))", channelID: "UC", title: "t", published: Date(timeIntervalSince1970: 0),
                  views: count, starRatings: counts[counts.count - 1 - index])
        }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try Store.open(at: directory.url).apply(StoreChange(videos: videos))
        let reopened = try Store.open(at: directory.url)
        #expect(reopened.takeNotices().isEmpty)
        for (index, count) in counts.enumerated() {
            #expect(reopened.library().video(videos[index].id)?.views == count, "views \(count) from the journal")
            #expect(reopened.library().video(videos[index].id)?.starRatings == counts[counts.count - 1 - index])
        }
        try reopened.compact()
        let compacted = try Store.open(at: directory.url)
        for (index, count) in counts.enumerated() {
            #expect(compacted.library().video(videos[index].id)?.views == count, "views \(count) from the snapshot")
            #expect(compacted.library().video(videos[index].id)?.starRatings == counts[counts.count - 1 - index])
        }
    }

    @Test func aHubSequenceAbove9e15SurvivesTheJournalAndACompaction() throws {
        // The break of issue 13.3: a 64-bit number the writer wrote made its whole line "damaged".
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        let video = Video(id: "dQw4w9WgXcQ", channelID: "UCuAXFkgsw1L7xaCfnd5JJOw", title: "big", published: Date(timeIntervalSince1970: 0),
                          duration: 9_000_000_000_000_001, hubSeq: .max)
        var sync = store.syncSnapshot()
        sync.hubWatermark = .max
        try store.apply(StoreChange(videos: [video], sync: sync))
        let reopened = try Store.open(at: directory.url)
        #expect(reopened.takeNotices().isEmpty)
        #expect(reopened.library().video(video.id) == video)
        #expect(reopened.syncSnapshot().hubWatermark == .max)
        try reopened.compact()
        #expect(try Store.open(at: directory.url).library().video(video.id) == video)
    }
}

/// Playback positions are an additive part of the store: stores written before them still open,
/// and a position survives the journal, a compaction and a backup.
@Suite struct PlaybackPositionStoreTests {
    @Test func aStoreWrittenBeforePositionsOpensWithNoneAndNoNotice() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // Given a journal line and a marks snapshot in the layout before positions existed
        let line = #"{"marks":[{"deviceID":"d","hlc":{"counter":0,"millis":5},"status":"watched","syncState":"pending","videoID":"v1"}],"v":1}"#
        try Data((line + "\n").utf8).write(to: directory.url.appendingPathComponent("journal-0.jsonl"))
        let store = try Store.open(at: directory.url)
        #expect(store.takeNotices().isEmpty)
        #expect(store.library().marks["v1"]?.status == .watched)
        #expect(store.library().playbackPositions.isEmpty)
    }

    @Test func aPositionSurvivesTheJournalACompactionAndABackup() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url)
        let saved = try store.transaction { $0.savePosition("v1", seconds: 842.25, duration: 1_800) }
        #expect(try Store.open(at: directory.url).library().playbackPositions["v1"] == saved)
        try store.compact()
        let compacted = try Store.open(at: directory.url)
        #expect(compacted.takeNotices().isEmpty)
        #expect(compacted.library().playbackPositions["v1"] == saved)
        let other = TemporaryDirectory()
        defer { other.remove() }
        let restored = try Store.open(at: other.url)
        try restored.restore(from: try compacted.exportBackup())
        #expect(restored.library().playbackPositions["v1"]?.seconds == 842.25)
    }

    @Test func anOlderPositionNeverReplacesANewerOne() {
        var library = Library()
        let newer = PlaybackPosition(videoID: "v", seconds: 900, hlc: HybridTimestamp(millis: 20), deviceID: "laptop")
        library.apply(newer)
        library.apply(PlaybackPosition(videoID: "v", seconds: 100, hlc: HybridTimestamp(millis: 10), deviceID: "phone"))
        #expect(library.playbackPositions["v"] == newer)
        var synced = newer
        synced.syncState = .synced
        library.apply(synced)
        #expect(library.playbackPositions["v"]?.syncState == .synced)
    }
}

/// A video's thumbnail field as a plain string, to read what the encoder wrote.
private struct PlainThumbnail: Decodable {
    var thumbnailURL: String?
}
