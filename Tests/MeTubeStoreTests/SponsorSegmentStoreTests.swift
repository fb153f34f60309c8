import Foundation
import MeTubeCore
@testable import MeTubeStore
import Testing
import TestSupport

/// Sponsor segments kept beside the store's files read back as written, and a damaged or foreign
/// segment file is refused rather than trusted.
@Suite struct SponsorSegmentStoreTests {
    private static func videoID(_ generator: inout SplitMix64) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
        return String((0..<11).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }

    /// Segments over the whole range a record can hold: any start, any length, any category,
    /// already screened as the fetcher keeps them.
    private static func record(_ generator: inout SplitMix64) -> SponsorSegmentRecord {
        let categories = SponsorSegment.categories.filter { _ in generator.next() % 2 == 0 }
        let wanted = categories.isEmpty ? ["sponsor"] : categories
        let count = Int(generator.next() % 120)
        let candidates = (0..<count).map { _ in
            let start = Double(generator.next() % 1_000_000_000) / 1000
            let length = Double(generator.next() % 10_000_000) / 997
            return SponsorSegment(start: start, end: start + length, category: wanted[Int(generator.next() % UInt64(wanted.count))])
        }
        return SponsorSegmentRecord(
            videoID: videoID(&generator), fetchedAt: Date(timeIntervalSince1970: Double(generator.next() % 4_000_000_000_000) / 1000),
            categories: wanted, segments: SponsorSegment.screened(candidates, categories: wanted, duration: nil))
    }

    @Test func everyRecordReadsBackAsWritten() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store"))
        var generator = SplitMix64(seed: 0x5350_4F4E_534F_52)
        for _ in 0..<300 {
            let record = Self.record(&generator)
            try store.saveSponsorSegments(record)
            #expect(try store.sponsorSegments(of: record.videoID) == record)
            #expect(try Store.open(at: store.directory).sponsorSegments(of: record.videoID) == record)
        }
    }

    @Test func aVideoWithoutKeptSegmentsHasNone() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store"))
        #expect(try store.sponsorSegments(of: "dQw4w9WgXcQ") == nil)
    }

    @Test func aDamagedForeignOrHugeFileIsRefusedAndAnIDThatIsNoPathIsRejected() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store"))
        try store.saveSponsorSegments(SponsorSegmentRecord(videoID: "9bZkp7q19f0", fetchedAt: Date(), categories: ["sponsor"], segments: []))
        let file = { (id: String) in store.directory.appendingPathComponent("segments/\(id).json") }
        try Data("{\"videoID\":".utf8).write(to: file("dQw4w9WgXcQ"))
        try FileManager.default.copyItem(at: file("9bZkp7q19f0"), to: file("aaaaaaaaaaa"))
        try Data(count: Store.maxSegmentFileBytes + 1).write(to: file("bbbbbbbbbbb"))
        for id in ["dQw4w9WgXcQ", "aaaaaaaaaaa", "bbbbbbbbbbb"] {
            #expect(throws: StoreError.self) { try store.sponsorSegments(of: id) }
        }
        #expect(throws: StoreError.self) { try store.sponsorSegments(of: "../../etc/x") }
        #expect(throws: StoreError.self) {
            try store.saveSponsorSegments(SponsorSegmentRecord(videoID: "../escaped", fetchedAt: Date(), categories: [], segments: []))
        }
    }

    @Test func keptSegmentsWithBadTimesAreScreenedOnTheWayIn() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Store.open(at: directory.url.appendingPathComponent("store"))
        try store.saveSponsorSegments(SponsorSegmentRecord(videoID: "dQw4w9WgXcQ", fetchedAt: Date(), categories: ["sponsor"], segments: []))
        let file = store.directory.appendingPathComponent("segments/dQw4w9WgXcQ.json")
        try Data("""
            {"videoID":"dQw4w9WgXcQ","fetchedAt":0,"categories":["sponsor"],"segments":[
            {"start":20,"end":10,"category":"sponsor"},{"start":5,"end":9,"category":"intro"},{"start":1,"end":4,"category":"sponsor"}]}
            """.utf8).write(to: file)
        #expect(try store.sponsorSegments(of: "dQw4w9WgXcQ")?.segments == [SponsorSegment(start: 1, end: 4, category: "sponsor")])
    }
}
