import Foundation
import MeTubeCore
import MeTubeJSON
@testable import MeTubeStore

/// A seeded generator of every stored type with values over each field's full range, extremes
/// included: strings with every kind of character JSON must escape or carry, 64-bit integers to
/// both ends, dates from the smallest to the largest finite `Double` (and non-finite ones, which
/// the writer clamps).
struct StoredValueGenerator {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { random.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func int64() -> Int64 {
        let extremes: [Int64] = [.min, .max, .min + 1, .max - 1, 0, 1, -1, 1 << 53, (1 << 53) + 1, -(1 << 53) - 1,
                                 9_000_000_000_000_000, 9_007_199_254_740_993, 1_000_000_000_000_000_000, -9_000_000_000_000_001]
        return chance(40) ? extremes[below(extremes.count)] : Int64(bitPattern: next())
    }

    mutating func uint32() -> UInt32 {
        chance(40) ? [0, 1, .max, .max - 1][below(4)] : UInt32(truncatingIfNeeded: next())
    }

    mutating func double() -> Double {
        let extremes: [Double] = [0, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
                                  .leastNormalMagnitude, 1e300, -1e300, 9.0e15, 9.007199254740993e15, 1e15, 999_999_999_999_999.9,
                                  1_700_000_000.123, 0.1, 1e-300, .infinity, -.infinity, .nan, .ulpOfOne]
        if chance(40) { return extremes[below(extremes.count)] }
        let value = Double(bitPattern: next())
        return value.isFinite ? value : Double(Int64(bitPattern: next())) / 1000
    }

    /// A date as the store writes and reads it back: non-finite values clamped, and at the fixed
    /// point of `Date`'s own conversion to seconds since 1970 (which is inexact for some values,
    /// independently of the store).
    mutating func date() -> Date {
        var date = Date(timeIntervalSince1970: JSONNumber.writable(double()))
        for _ in 0..<8 {
            let again = Date(timeIntervalSince1970: date.timeIntervalSince1970)
            if again == date { break }
            date = again
        }
        return date
    }

    mutating func scalar() -> Unicode.Scalar {
        let ranges: [ClosedRange<UInt32>] = [0x00...0x1F, 0x20...0x7E, 0x7F...0x9F, 0xA0...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFD,
                                             0x10000...0x10FFFF, 0x2028...0x2029, 0x202A...0x202E, 0xFEFF...0xFEFF]
        if chance(10) { return ["\"", "\\", "/", "\u{0}", "\n"][below(5)] }
        let range = ranges[below(ranges.count)]
        let value = range.lowerBound + UInt32(next() % UInt64(range.upperBound - range.lowerBound + 1))
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    mutating func string() -> String {
        let length = chance(3) ? 2_000 + below(3_000) : below(24)
        var text = String.UnicodeScalarView()
        for _ in 0..<length { text.append(scalar()) }
        return String(text)
    }

    mutating func optional<T>(_ make: (inout StoredValueGenerator) -> T) -> T? {
        chance(30) ? nil : make(&self)
    }

    mutating func list<T>(_ maximum: Int, _ make: (inout StoredValueGenerator) -> T) -> [T] {
        (0..<below(maximum + 1)).map { _ in make(&self) }
    }

    mutating func channel() -> Channel {
        Channel(id: string(), title: optional { $0.string() }, thumbnailURL: optional { $0.string() }, addedAt: date(), tags: optional { $0.list(3) { $0.string() } })
    }

    mutating func video() -> Video {
        let id = chance(30) ? videoID() : string()
        return Video(id: id, channelID: string(), title: string(), published: date(), duration: optional { Int($0.int64()) },
                     description: optional { $0.string() }, thumbnailURL: optional { $0.thumbnailURL(for: id) }, hubSeq: optional { $0.int64() },
                     isShortLink: chance(50), availability: Availability.allCases[below(Availability.allCases.count)],
                     scheduledStart: optional { $0.date() }, views: optional { $0.count() }, starRatings: optional { $0.count() })
    }

    /// A view or rating count: often at an edge of 24, 32, 50 or 53 bits, else any that a video
    /// holds (0…2^53 − 1).
    mutating func count() -> Int {
        let edges = [0, 1, (1 << 24) - 1, 1 << 24, (1 << 24) + 1, (1 << 32) - 1, (1 << 32) + 1, 1 << 49, 1 << 50, (1 << 53) - 1]
        return chance(40) ? edges[below(edges.count)] : Int(next() >> 11)
    }

    /// A YouTube-shaped video id: 11 characters of `[A-Za-z0-9_-]`.
    mutating func videoID() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
        return String((0..<11).map { _ in alphabet[below(alphabet.count)] })
    }

    /// A thumbnail address for the video `id`: often YouTube's usual one (which a video holds in
    /// two bytes), else one that nearly is (another id, host or name, a character more or less, a
    /// canonically equivalent spelling), else any string.
    mutating func thumbnailURL(for id: String) -> String {
        let hosts = ["", "1", "2", "3", "4", "9", "12", "x"]
        let names = ["hqdefault", "mqdefault", "default", "sddefault", "maxresdefault", "hq720", "0", "1", "2", "3", "hqdefault.jpg", "HQDEFAULT", ""]
        let usual = "https://i\(hosts[below(hosts.count)]).ytimg.com/vi/\(id)/\(names[below(names.count)]).jpg"
        switch below(8) {
        case 0, 1, 2: return usual
        case 3: return usual.replacingOccurrences(of: "/vi/\(id)/", with: "/vi/\(videoID())/")
        case 4: return usual + (chance(50) ? "/" : "?")
        case 5: return String(usual.dropFirst(below(12)))
        case 6: return usual.replacingOccurrences(of: "https", with: "http").replacingOccurrences(of: "e", with: "e\u{301}")
        default: return string()
        }
    }

    mutating func timestamp() -> HybridTimestamp { HybridTimestamp(millis: int64(), counter: uint32()) }

    mutating func serverVersion() -> ServerVersion {
        ServerVersion(changeTag: string(), status: WatchStatus.allCases[below(WatchStatus.allCases.count)],
                      hlc: optional { $0.timestamp() }, deviceID: optional { $0.string() })
    }

    mutating func mark() -> Mark {
        Mark(videoID: string(), status: WatchStatus.allCases[below(WatchStatus.allCases.count)], hlc: timestamp(), deviceID: string(),
             syncState: SyncState.allCases[below(SyncState.allCases.count)], base: optional { $0.serverVersion() },
             theirs: optional { $0.serverVersion() })
    }

    /// A playback position from any `Double`s (the initializer clamps them into the stored range).
    mutating func position() -> PlaybackPosition {
        PlaybackPosition(videoID: string(), seconds: double(), duration: optional { $0.double() }, hlc: timestamp(), deviceID: string(),
                         syncState: SyncState.allCases[below(SyncState.allCases.count)])
    }

    /// A watch-later queue entry, queued at any `Int64` (the initializer clamps it into range) or
    /// taken out.
    mutating func queueEntry() -> QueueEntry {
        QueueEntry(videoID: string(), queuedAt: optional { $0.int64() }, hlc: timestamp(), deviceID: string(),
                   syncState: SyncState.allCases[below(SyncState.allCases.count)])
    }

    mutating func channelFetch() -> ChannelFetchResult {
        ChannelFetchResult(lastSuccess: optional { $0.date() }, failingSince: optional { $0.date() }, lastError: optional { $0.string() },
                           etag: optional { $0.string() }, lastModified: optional { $0.string() })
    }

    mutating func sync() -> SyncSnapshot {
        var sync = SyncSnapshot(deviceID: "device-" + string())
        sync.hubWatermark = int64()
        sync.hubRegisteredChannelIDs = list(4) { $0.string() }
        sync.lastHubSync = optional { $0.date() }
        sync.markSyncToken = optional { $0.string() }
        sync.subscriptionsSyncToken = optional { $0.string() }
        sync.markSyncZoneReady = chance(50)
        sync.lastMarkSync = optional { $0.date() }
        sync.markSyncOfflineSince = optional { $0.date() }
        sync.channelFetches = Dictionary(list(3) { ($0.string(), $0.channelFetch()) }, uniquingKeysWith: { _, last in last })
        return sync
    }

    mutating func change() -> StoreChange {
        var change = StoreChange(marks: list(4) { $0.mark() }, removedMarkIDs: list(2) { $0.string() }, videos: list(4) { $0.video() },
                                 channels: list(3) { $0.channel() }, removedChannelIDs: list(2) { $0.string() }, sync: optional { $0.sync() },
                                 positions: list(3) { $0.position() })
        change.queue = list(3) { $0.queueEntry() }
        change.addedVideoIDs = change.videos.map(\.id)
        return change
    }
}
