import Foundation
import MeTubeCore
import MeTubeFeeds
import Testing

/// Reading every link form a user pastes: ids, channel, handle, `/c/`, `/user/` and video links of
/// every YouTube host, with any query parameters, percent-encoded or not; and random junk.
@Suite struct ChannelLinkTests {
    private let luke = "UC2eYFnH61tmytImy1mTYvhA"
    private let video = "dQw4w9WgXcQ"

    private static let hosts = [
        "https://www.youtube.com", "https://youtube.com", "https://m.youtube.com", "https://music.youtube.com",
        "http://www.youtube.com", "www.youtube.com", "youtube.com", "m.youtube.com", "HTTPS://WWW.YOUTUBE.COM",
        "https://www.youtube.com:443",
    ]
    private static let parameterSets = ["", "?si=AbCdEfGh12345678", "?feature=share", "?feature=shared&si=x_Y-z", "?pp=ygUFaGVsbG8%3D", "#about"]

    @Test func everyFormHostAndParameterSetReadsToTheSameTarget() {
        // Given each link form, on every host, with every set of tracking parameters
        let forms: [(path: String, expected: ChannelReference)] = [
            ("/channel/\(luke)", .channel(luke)),
            ("/channel/\(luke)/videos", .channel(luke)),
            ("/@veritasium", .link(.handle("veritasium"))),
            ("/@veritasium/videos", .link(.handle("veritasium"))),
            ("/%40veritasium", .link(.handle("veritasium"))),
            ("/c/LinusTechTips", .link(.customName("LinusTechTips"))),
            ("/user/NASAtelevision", .link(.user("NASAtelevision"))),
            ("/shorts/\(video)", .link(.video(video))),
            ("/live/\(video)", .link(.video(video))),
            ("/embed/\(video)", .link(.video(video))),
        ]
        for host in Self.hosts {
            for parameters in Self.parameterSets {
                for form in forms {
                    // When it is read
                    // Then it names the same channel or video
                    #expect(ChannelReference.parse(host + form.path + parameters) == form.expected, "\(host + form.path + parameters)")
                }
                let watch = parameters.isEmpty || parameters.hasPrefix("#") ? "?v=\(video)\(parameters)" : "?\(parameters.dropFirst())&v=\(video)&t=42s"
                #expect(ChannelReference.parse(host + "/watch" + watch) == .link(.video(video)), "\(host)/watch\(watch)")
            }
        }
        for parameters in Self.parameterSets {
            #expect(ChannelReference.parse("https://youtu.be/\(video)\(parameters)") == .link(.video(video)))
            #expect(ChannelReference.parse("youtu.be/\(video)\(parameters)") == .link(.video(video)))
            #expect(ChannelReference.parse("https://www.youtube-nocookie.com/embed/\(video)\(parameters)") == .link(.video(video)))
        }
    }

    @Test func bareIDsAndHandlesAndFeedsAreRead() {
        // Given a bare id, bare handles, and feed URLs
        // When they are read
        // Then each names its channel or link
        #expect(ChannelReference.parse("  \(luke)\n") == .channel(luke))
        #expect(ChannelReference.parse("@veritasium") == .link(.handle("veritasium")))
        #expect(ChannelReference.parse("@Mr.Beast_6000-x") == .link(.handle("Mr.Beast_6000-x")))
        #expect(ChannelReference.parse("https://www.youtube.com/feeds/videos.xml?user=google") == .link(.user("google")))
        #expect(ChannelReference.parse("https://www.youtube.com/feeds/videos.xml?channel_id=\(luke)") == .channel(luke))
        #expect(ChannelReference.parse("https://www.youtube.com/playlist?list=UU2eYFnH61tmytImy1mTYvhA&si=x") == .channel(luke))
    }

    @Test func unicodeHandlesAreKeptAndFoldedForTheCache() {
        // Given a handle in Japanese, typed raw and percent-encoded, and handles differing in case
        let raw = ChannelReference.parse("https://www.youtube.com/@はじめしゃちょー")
        let encoded = ChannelReference.parse("https://www.youtube.com/@%E3%81%AF%E3%81%98%E3%82%81%E3%81%97%E3%82%83%E3%81%A1%E3%82%87%E3%83%BC")
        // When they are read
        // Then both are the same handle, its URL reads back as itself, and case does not change its key
        #expect(raw == .link(.handle("はじめしゃちょー")))
        #expect(encoded == raw)
        #expect(ChannelReference.parse(ChannelLink.handle("はじめしゃちょー").url) == raw)
        #expect(ChannelLink.handle("Veritasium").key == ChannelLink.handle("veritasium").key)
        #expect(ChannelLink.video("dQw4w9WgXcQ").key != ChannelLink.video("dqw4w9wgxcq").key)
    }

    @Test func badHandlesVideoIDsAndHostsAreUnusableWithAReason() {
        // Given handles too short, too long or with spaces and slashes, video ids of the wrong length
        // or alphabet, foreign hosts and schemes, and YouTube pages that name no channel
        let cases: [(String, String)] = [
            ("@ab", "is not a valid handle"),
            ("@" + String(repeating: "a", count: 31), "is not a valid handle"),
            ("https://www.youtube.com/@bad%20name", "is not a valid handle"),
            ("@a/b/c", "is not a valid handle"),
            ("https://youtu.be/short", "is not a valid video id"),
            ("https://www.youtube.com/watch?v=dQw4w9WgXc!", "is not a valid video id"),
            ("https://www.youtube.com/watch?list=PL123", "a playlist, not a channel"),
            ("https://www.youtube.com/watch", "is not a valid video id"),
            ("https://www.youtube.com/feed/subscriptions", "names no channel or video"),
            ("https://www.youtube.com/%ZZ", "broken percent-encoding"),
            ("https://evil.example/@veritasium", "not a YouTube URL (host evil.example)"),
            ("https://youtube.com.evil.example/@veritasium", "not a YouTube URL"),
            ("ftp://www.youtube.com/@veritasium", "not a channel id, @handle or YouTube URL"),
            ("UCshort", "is not a valid channel id"),
            ("veritasium", "not a channel id, @handle or YouTube URL"),
            ("", "empty entry"),
            (String(repeating: "x", count: 3_000), "longer than 2048 bytes"),
        ]
        for (text, reason) in cases {
            // When each is read
            // Then it is unusable, with a reason saying why
            guard case let .unusable(said) = ChannelReference.parse(text) else {
                Issue.record("\(text.prefix(60)) was accepted")
                continue
            }
            #expect(said.contains(reason), "\(text.prefix(60)): \(said)")
        }
    }

    @Test func tenThousandRandomStringsNeverCrashOrYieldAnInvalidID() {
        // Given 10,000 random strings built from link pieces, URL punctuation, escapes and Unicode
        var random = SplitMix64(seed: 35)
        let pieces = ["https://", "www.", "m.", "youtube.com", "youtu.be", "youtube-nocookie.com", "/", "@", "channel/", "c/", "user/",
                      "watch", "?v=", "&", "=", "#", "%", "%40", "%E3%81", "%ZZ", "shorts/", "live/", "embed/", "UC", "UU", "dQw4w9WgXcQ",
                      "2eYFnH61tmytImy1mTYvhA", "list=", "channel_id=", "user=", " ", "\t", "\n", "\u{0}", "é", "はじめ", "👍🏽", ".", "-", "_", ":", "443"]
        for _ in 0..<10_000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            // When it is read
            // Then it never crashes, and anything it yields is valid
            switch ChannelReference.parse(text) {
            case let .channel(id): #expect(ChannelID.isValid(id), "\(text)")
            case let .link(.video(id)): #expect(id.utf8.count == 11 && id.utf8.allSatisfy(ChannelID.isIDByte), "\(text)")
            case let .link(.handle(name)): #expect((3...30).contains(name.count) && !name.contains("/") && !name.contains(" "), "\(text)")
            case let .link(.customName(name)), let .link(.user(name)): #expect(!name.isEmpty && !name.contains("/"), "\(text)")
            case let .unusable(reason): #expect(!reason.isEmpty && !reason.contains("\n"))
            }
        }
    }
}
