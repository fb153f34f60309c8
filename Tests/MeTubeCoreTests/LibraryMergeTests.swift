import Foundation
import MeTubeCore
import Testing

/// A sync's new videos merged into the library in place give what sorting everything would.
@Suite struct LibraryMergeTests {
    @Test func batchesOfNewVideosMergeIntoFeedOrderAsASortWouldPlaceThem() {
        var random = SplitMix64(seed: 0x6D65_7267_65)
        for round in 0..<60 {
            // Given a library, and batches of new videos older, newer, in between and tied in time
            // with it (ties ordered by id), duplicates within a batch included (the last one wins)
            var library = Library()
            var expected: [String: Video] = [:]
            var number = 0
            for _ in 0..<(1 + Int(random.next() % 6)) {
                let size = Int(random.next() % 300)
                let span = UInt64(1 + random.next() % 5_000)
                var batch: [Video] = []
                for _ in 0..<size {
                    number += 1
                    let id = random.next() % 8 == 0 && !batch.isEmpty ? batch[Int(random.next() % UInt64(batch.count))].id : String(format: "v%010llu", random.next() % 1_000_000)
                    guard expected[id] == nil || batch.contains(where: { $0.id == id }) else { continue }
                    batch.append(Video(id: id, channelID: "UC", title: "t\(number)", published: Date(timeIntervalSince1970: Double(random.next() % span))))
                }
                // When each batch is merged in
                let added = library.upsert(batch)
                let newIDs = Set(batch.map(\.id))
                #expect(added == newIDs.count, "round \(round)")
                for video in batch { expected[video.id] = video }
            }
            // Then the library is every video once, in feed order, each found by its id
            let sorted = expected.values.sorted(by: Library.feedOrder)
            #expect(library.videos == sorted, "round \(round)")
            for video in sorted.prefix(50) { #expect(library.video(video.id) == video) }
        }
    }
}
