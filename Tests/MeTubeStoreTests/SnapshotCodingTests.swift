import Foundation
import MeTubeCore
import MeTubeJSON
@testable import MeTubeStore
import Testing

@Suite struct SnapshotCodingTests {
    @Test func snapshotsReadBackWithTheFastReaderAndWithJSONDecoder() throws {
        // Given videos with escapes, non-ASCII, emoji and optional fields both set and missing
        let videos = [
            Video(id: "a1", channelID: "UCx", title: "Quote \" backslash \\ tab \t newline \n 東京 🚀 \u{1}", published: Date(timeIntervalSince1970: 1_700_000_000.5),
                  duration: 61, description: "d/e", thumbnailURL: "https://i.ytimg.com/vi/a1/hq.jpg", hubSeq: 9_007_199_254, isShortLink: true),
            Video(id: "b2", channelID: "UCx", title: "plain", published: Date(timeIntervalSince1970: 1_600_000_000)),
        ]
        let marks = [Mark(videoID: "a1", status: .skipped, hlc: HybridTimestamp(millis: 1_732_000_000_123, counter: 4), deviceID: "laptop",
                          syncState: .conflict, base: ServerVersion(changeTag: "c1", status: .watched, hlc: HybridTimestamp(millis: 3), deviceID: "phone"),
                          theirs: ServerVersion(changeTag: "c2", status: .unwatched))]
        let library = Library(channels: [Channel(id: "UCx", title: "Ch \"1\"", addedAt: Date(timeIntervalSince1970: 5))], videos: videos, marks: marks)
        // When the snapshots are encoded and read back with the fast reader and with JSONDecoder
        let files = try SnapshotEncoding.files(library: library, sync: SyncSnapshot(deviceID: "laptop"), generation: 3)
        let libraryFile = try SnapshotDecoding.library(files[0].1)
        let marksFile = try SnapshotDecoding.marks(files[1].1)
        // Then everything is equal
        #expect(libraryFile.videos == library.videos)
        #expect(libraryFile.channels == Array(library.channels.values))
        #expect(marksFile.marks == marks)
        #expect(libraryFile.generation == 3 && marksFile.schemaVersion == currentSchemaVersion)
        #expect(try StoreCoding.decoder().decode(LibraryFile.self, from: files[0].1).videos == library.videos)
        #expect(try StoreCoding.decoder().decode(MarksFile.self, from: files[1].1).marks == marks)
    }

    @Test(arguments: [#"{"schemaVersion":1,"videos":[{"id":"x"}]}"#, #"{"schemaVersion":1,"videos":[}"#, "", #"{"videos":[{"id":"\u12"}]}"#, #"{} trailing"#])
    func damagedInputFailsWithAReason(text: String) {
        #expect(throws: JSONScanner.Failure.self) { try SnapshotDecoding.library(Data(text.utf8)) }
    }

    @Test func surrogatePairEscapesDecode() throws {
        let data = Data(#"{"videos":[{"id":"e","channelID":"UC","title":"\ud83d\ude80 \u00e9","published":0}]}"#.utf8)
        #expect(try SnapshotDecoding.library(data).videos.first?.title == "🚀 é")
    }
}
