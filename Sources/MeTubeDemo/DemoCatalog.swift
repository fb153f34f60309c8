import Foundation
import MeTubeCore
import MeTubeFeeds

/// The channels and videos of `metube-server --demo`: realistic and reproducible, with channel
/// names and titles in several scripts (including CJK and emoji), Shorts and missing durations,
/// and titles and descriptions sized like real feeds' (``FeedFieldSizes``): multi-line
/// descriptions with links and chapter lines.
public struct DemoCatalog: Sendable {
    /// How many channels to make.
    public var channelCount: Int
    /// How many videos to make, spread over the channels.
    public var videoCount: Int
    /// The seed: the same seed makes the same catalog.
    public var seed: UInt64
    /// The newest video's publication date; older ones go back from here.
    public var newest: Date

    /// Describes a catalog to generate.
    public init(channelCount: Int = 216, videoCount: Int = 10_000, seed: UInt64 = 42, newest: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        self.channelCount = channelCount
        self.videoCount = videoCount
        self.seed = seed
        self.newest = newest
    }

    private static let channelWords = ["Digital", "Foundry", "Science", "Garden", "Retro", "Kitchen", "Synth", "Workshop", "Orbit", "Chess", "Jazz", "Rust", "Swift", "Urban", "Trail", "Pixel"]
    private static let titleWords = ["review", "explained", "deep dive", "live", "tutorial", "first look", "vs", "tested", "how to", "build", "restoration", "story", "update", "in 10 minutes", "every", "week"]
    private static let foreignTitles = ["東京の夜景を歩く", "初めての自作キーボード", "서울 브이로그", "Прогулка по Москве", "رحلة إلى الصحراء", "Café au lait ☕ et croissants", "🚀 Launch day recap 🎉", "Ñandú en la pampa", "Überraschung im Wald 🌲", "中文字幕：长城徒步"]

    /// A channel id made from a number: `UC` and 22 id characters.
    public static func channelID(_ number: Int) -> String {
        "UC" + String(format: "%022d", number).replacingOccurrences(of: "0", with: "A")
    }

    /// A video id made from a number: 11 id characters.
    public static func videoID(_ number: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var value = number
        var characters: [Character] = []
        for _ in 0..<11 {
            characters.append(alphabet[value % 64])
            value /= 64
        }
        return String(characters)
    }

    /// The channels this catalog makes.
    public func channels() -> [Channel] {
        var random = SplitMix64(seed: seed)
        return (0..<channelCount).map { index in
            let name = index % 17 == 5
                ? Self.foreignTitles[index % Self.foreignTitles.count].components(separatedBy: " ").first!
                : "\(Self.channelWords[Int(random.next() % 16)]) \(Self.channelWords[Int(random.next() % 16)])"
            return Channel(id: Self.channelID(index), title: name, addedAt: newest.addingTimeInterval(-Double(index) * 86_400))
        }
    }

    /// The `index`-th video: deterministic, newest at index 0.
    public func video(_ index: Int) -> Video {
        var random = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9)
        let title: String
        if index % 9 == 4 {
            title = Self.foreignTitles[Int(random.next() % UInt64(Self.foreignTitles.count))]
        } else {
            let length = FeedFieldSizes.titleBytes[Int(random.next() % UInt64(FeedFieldSizes.titleBytes.count))]
            var words: [String] = []
            while words.joined(separator: " ").utf8.count + 8 < length { words.append(Self.titleWords[Int(random.next() % 16)]) }
            title = words.joined(separator: " ").capitalized + " #\(index)"
        }
        let roll = random.next() % 20
        let duration: Int? = roll == 0 ? nil : (roll < 3 ? Int(15 + random.next() % 44) : Int(120 + random.next() % 5_400))
        let id = Self.videoID(index)
        let descriptionLength = FeedFieldSizes.descriptionBytes[Int(random.next() % UInt64(FeedFieldSizes.descriptionBytes.count))]
        return Video(
            id: id, channelID: Self.channelID(index % max(channelCount, 1)), title: title,
            published: newest.addingTimeInterval(-Double(index) * 600),
            duration: duration, description: Self.description(bytes: descriptionLength, title: title, videoID: id, random: &random),
            thumbnailURL: YouTubeThumbnail.address(videoID: id, name: "hqdefault", host: 1),
            isShortLink: roll == 1
        )
    }

    private static let sentenceWords = ["the", "new", "video", "about", "our", "build", "with", "and", "a", "first", "look", "at",
                                        "this", "week", "we", "tested", "every", "part", "of", "it", "thanks", "for", "watching",
                                        "support", "channel", "members", "get", "early", "access", "to", "more"]
    private static let chapterNames = ["Intro", "Unboxing", "Setup", "First impressions", "Benchmarks", "Results", "Q&A", "Outro"]

    /// A description of about `bytes` UTF-8 bytes, as channels write them: a paragraph, chapter
    /// lines (`0:00 Intro`), links and tags, one item a line.
    static func description(bytes: Int, title: String, videoID: String, random: inout SplitMix64) -> String? {
        guard bytes > 0 else { return nil }
        var lines = [title]
        var size = title.utf8.count
        var chapter = 0
        while size < bytes {
            let line: String
            switch random.next() % 6 {
            case 0:
                line = "https://www.example.com/\(videoID)/\(random.next() % 1_000)"
            case 1 where chapter < chapterNames.count:
                let seconds = chapter * (60 + Int(random.next() % 240))
                line = "\(seconds / 60):\(String(format: "%02d", seconds % 60)) \(chapterNames[chapter])"
                chapter += 1
            case 2:
                line = "#\(titleWords[Int(random.next() % 16)].replacingOccurrences(of: " ", with: "")) #\(channelWords[Int(random.next() % 16)].lowercased())"
            default:
                let words = (0..<(6 + Int(random.next() % 14))).map { _ in sentenceWords[Int(random.next() % UInt64(sentenceWords.count))] }
                line = words.joined(separator: " ").capitalized + "."
            }
            lines.append(line)
            size += line.utf8.count + 1
        }
        var text = lines.joined(separator: "\n")
        while text.utf8.count > bytes { text.removeLast() }
        return text
    }

    /// The videos this catalog makes, newest first.
    public func videos() -> [Video] { (0..<videoCount).map(video) }
}
