import Foundation
import Testing
@testable import MeTubeCore

/// The compact tables behind a library (marks by video id, videos by id) against a dictionary
/// doing the same work: random sets, replacements and removals, with ids that collide often.
@Suite struct CompactTableTests {
    @Test func theMarkTableHoldsExactlyWhatADictionaryWouldThroughInsertsReplacementsAndRemovals() {
        var random = SplitMix64(seed: 11)
        var table = MarkTable()
        var model: [String: Mark] = [:]
        // A small id space, so ids are set, replaced and removed many times and probe runs form.
        let ids = (0..<3_000).map { String(format: "v%010d", $0) }
        for step in 0..<60_000 {
            let id = ids[Int(random.next() % UInt64(ids.count))]
            if random.next() % 3 == 0 {
                table[id] = nil
                model[id] = nil
            } else {
                let mark = Mark(videoID: id, status: WatchStatus.allCases[step % WatchStatus.allCases.count],
                                hlc: HybridTimestamp(millis: Int64(step)), deviceID: "d\(step % 7)")
                table[id] = mark
                model[id] = mark
            }
            if step % 5_000 == 0 { #expect(table.count == model.count) }
        }
        #expect(table.count == model.count)
        for id in ids { #expect(table[id] == model[id], "\(id)") }
        #expect(Set(table.map(\.videoID)) == Set(model.keys))
        #expect(table.values.count == model.count)
        #expect(table == MarkTable(model.values.shuffled(using: &random)))
    }

    @Test func aLibraryFindsEveryVideoByIdAfterUpsertsAndRemovals() {
        let channels = (0..<5).map { Channel(id: "UC\(String(repeating: "x", count: 21))\($0)") }
        func video(_ number: Int, published: Int) -> Video {
            Video(id: String(format: "id%09d", number), channelID: channels[number % 5].id, title: "t\(number)",
                  published: Date(timeIntervalSince1970: Double(published)))
        }
        var library = Library(channels: channels, videos: (0..<2_000).map { video($0, published: $0) })
        // New videos older, newer and in between, and some republished at another time
        library.upsert((2_000..<3_000).map { video($0, published: ($0 * 7919) % 4_000) } + (0..<100).map { video($0, published: 10_000 + $0) })
        library.removeChannel(channels[3].id)
        let expected = (0..<3_000).filter { $0 % 5 != 3 }
        #expect(library.videos.count == expected.count)
        #expect(zip(library.videos, library.videos.dropFirst()).allSatisfy { Library.feedOrder($0, $1) })
        for number in expected { #expect(library.video(String(format: "id%09d", number))?.title == "t\(number)") }
        #expect(library.video(String(format: "id%09d", 3)) == nil)
        #expect(library.video("missing") == nil)
    }
}
