import Foundation
import MeTubeCore
import MeTubeDemo

/// A random library shaped for query tests: tagged and untagged channels, videos with random
/// titles, lengths (some unknown), ages and Short links, marks in every status and sync state,
/// and playback positions.
public struct RandomQueryLibrary: Sendable {
    /// The library.
    public let library: Library
    /// The time `age` terms count from.
    public let now: Date

    /// The tags channels draw from.
    public static let tags = ["music", "News", "cooking", "long-form"]
    /// The words titles are made of (some with regex-relevant characters and letter case).
    public static let titleWords = ["Trailer", "live", "Official", "music", "VLOG", "#shorts", "part.2", "(remix)", "news", "review"]

    /// A library of `videoCount` videos over `channelCount` channels, drawn from `random`.
    public init(videoCount: Int, channelCount: Int, random: inout SplitMix64) {
        now = Date(timeIntervalSince1970: 1_790_000_000)
        var channels: [Channel] = []
        for number in 0..<channelCount {
            let tags = Self.tags.filter { _ in random.next() % 3 == 0 }
            channels.append(Channel(id: DemoCatalog.channelID(number), title: random.next() % 5 == 0 ? nil : "Channel \(number)",
                                    tags: random.next() % 4 == 0 ? nil : tags))
        }
        var videos: [Video] = []
        var marks: [Mark] = []
        var positions: [PlaybackPosition] = []
        for number in 0..<videoCount {
            let id = DemoCatalog.videoID(number)
            let words = (0..<(1 + Int(random.next() % 4))).map { _ in Self.titleWords[Int(random.next() % UInt64(Self.titleWords.count))] }
            let duration: Int? = random.next() % 6 == 0 ? nil : Int(random.next() % 7_200)
            let published = now.addingTimeInterval(-Double(random.next() % (60 * 86_400)))
            videos.append(Video(id: id, channelID: DemoCatalog.channelID(Int(random.next() % UInt64(max(channelCount, 1)))),
                                title: words.joined(separator: " "), published: published, duration: duration, isShortLink: random.next() % 7 == 0))
            if random.next() % 3 != 0 {
                let status = WatchStatus.allCases[Int(random.next() % 3)]
                let state = [SyncState.synced, .pending, .conflict][Int(random.next() % 3)]
                marks.append(Mark(videoID: id, status: status, hlc: HybridTimestamp(millis: Int64(number + 1)), deviceID: "d", syncState: state))
            }
            if random.next() % 5 == 0 {
                positions.append(PlaybackPosition(videoID: id, seconds: Double(random.next() % 3) * 30, hlc: HybridTimestamp(millis: 1), deviceID: "d"))
            }
        }
        var library = Library(channels: channels, videos: videos, marks: marks)
        for position in positions { library.apply(position) }
        self.library = library
    }
}

/// A random query, written out as text and evaluated by brute force, independently of the query
/// language's parser and evaluator, so the two can be compared.
public indirect enum QueryShape: Sendable, CustomStringConvertible {
    case status(WatchStatus)
    case inProgress, pending, conflict, short
    case tag(String)
    case channel(Int, byName: Bool)
    case title(String)
    case duration(String, Int)
    case age(String, Int)
    case not(QueryShape)
    case and(QueryShape, QueryShape)
    case or(QueryShape, QueryShape)

    /// A random query at most `depth` operators deep; `age` terms only when `withAge` (they
    /// depend on the time of evaluation, which another process does not share).
    public static func random(depth: Int, channelCount: Int, withAge: Bool = true, random: inout SplitMix64) -> QueryShape {
        var pick = random.next() % (depth > 0 ? 14 : 10)
        if !withAge, pick == 8 || pick == 9 { pick = 0 }
        let comparisons = ["<", "<=", ">", ">=", "="]
        switch pick {
        case 0: return .status(WatchStatus.allCases[Int(random.next() % 3)])
        case 1: return [.inProgress, .pending, .conflict][Int(random.next() % 3)]
        case 2: return .short
        case 3: return .tag(RandomQueryLibrary.tags[Int(random.next() % 4)].uppercased())
        case 4: return .channel(Int(random.next() % UInt64(max(channelCount, 1))), byName: random.next() % 2 == 0)
        case 5: return .title(["trailer", "^live", "part\\.2", "\\(remix\\)$", "(?-i)VLOG", "o.*i"][Int(random.next() % 6)])
        case 6, 7: return .duration(comparisons[Int(random.next() % 5)], Int(random.next() % 120))
        case 8, 9: return .age(comparisons[Int(random.next() % 5)], Int(random.next() % 60))
        case 10, 11: return .not(Self.random(depth: depth - 1, channelCount: channelCount, withAge: withAge, random: &random))
        case 12: return .and(Self.random(depth: depth - 1, channelCount: channelCount, withAge: withAge, random: &random), Self.random(depth: depth - 1, channelCount: channelCount, withAge: withAge, random: &random))
        default: return .or(Self.random(depth: depth - 1, channelCount: channelCount, withAge: withAge, random: &random), Self.random(depth: depth - 1, channelCount: channelCount, withAge: withAge, random: &random))
        }
    }

    /// The query's text, fully parenthesized, `!` and `not` alternating.
    public var description: String {
        switch self {
        case .status(let status): status.rawValue
        case .inProgress: "in-progress"
        case .pending: "pending"
        case .conflict: "conflict"
        case .short: "short"
        case .tag(let tag): "tag:\(tag)"
        case let .channel(number, byName): byName ? "channel:\"channel \(number)\"" : "channel:\(DemoCatalog.channelID(number))"
        case .title(let pattern): "title~\"\(pattern.replacingOccurrences(of: "\\", with: "\\\\"))\""
        case let .duration(comparison, minutes): "duration\(comparison)\(minutes)m"
        case let .age(comparison, days): "age \(comparison) \(days)d"
        case .not(let shape): "not (\(shape))"
        case let .and(left, right): "(\(left)) and (\(right))"
        case let .or(left, right): "(\(left)) OR !!(\(right))"
        }
    }

    /// Whether `video` of `library` satisfies this query, by brute force.
    public func admits(_ video: Video, in library: Library, now: Date) -> Bool {
        let mark = library.marks[video.id]
        let channel = library.channels[video.channelID]
        func compare(_ amount: Int, _ comparison: String, _ limit: Int) -> Bool {
            switch comparison {
            case "<": amount < limit
            case "<=": amount <= limit
            case ">": amount > limit
            case ">=": amount >= limit
            default: amount == limit
            }
        }
        switch self {
        case .status(.unwatched): return mark == nil || mark?.status == .unwatched
        case .status(let status): return mark?.status == status
        case .inProgress: return (mark == nil || mark?.status == .unwatched) && (library.playbackPositions[video.id]?.seconds ?? 0) > 0
        case .pending: return mark?.syncState == .pending
        case .conflict: return mark?.syncState == .conflict
        case .short: return (video.duration.map { $0 > 0 && $0 < 60 } ?? false) || video.isShortLink
        case .tag(let tag): return channel?.tags?.contains { $0.lowercased() == tag.lowercased() } ?? false
        case let .channel(number, byName):
            return byName ? channel?.title?.lowercased() == "channel \(number)" : video.channelID == DemoCatalog.channelID(number)
        case .title(let pattern):
            let caseSensitive = pattern.hasPrefix("(?-i)")
            let body = caseSensitive ? String(pattern.dropFirst(5)) : pattern
            return video.title.range(of: body, options: caseSensitive ? [.regularExpression] : [.regularExpression, .caseInsensitive]) != nil
        case let .duration(comparison, minutes):
            guard let duration = video.duration, duration > 0 else { return false }
            return compare(duration, comparison, minutes * 60)
        case let .age(comparison, days): return compare(Int(now.timeIntervalSince(video.published)), comparison, days * 86_400)
        case .not(let shape): return !shape.admits(video, in: library, now: now)
        case let .and(left, right): return left.admits(video, in: library, now: now) && right.admits(video, in: library, now: now)
        case let .or(left, right): return left.admits(video, in: library, now: now) || right.admits(video, in: library, now: now)
        }
    }
}
