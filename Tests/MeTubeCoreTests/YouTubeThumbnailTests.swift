import Foundation
import MeTubeCore
import Testing

/// The one rule for YouTube's thumbnail addresses, as a ``Video`` holds them and the thumbnail
/// fetch recognises them.
@Suite struct YouTubeThumbnailTests {
    static let id = "abcDEF12345"
    static let names = ["hqdefault", "mqdefault", "default", "sddefault", "maxresdefault", "hq720", "0", "1", "2", "3", "hqdefault_live"]
    static let hosts: [Int?] = [nil] + (0...9).map { $0 } + [12]

    @Test func anAddressIsBuiltAsFeedsGiveIt() {
        #expect(YouTubeThumbnail.address(videoID: Self.id, name: "mqdefault") == "https://i.ytimg.com/vi/abcDEF12345/mqdefault.jpg")
        #expect(YouTubeThumbnail.address(videoID: Self.id, name: "hqdefault", host: 4) == "https://i4.ytimg.com/vi/abcDEF12345/hqdefault.jpg")
    }

    @Test func everyBuiltAddressIsRecognisedAndAVideoGivesItBackByteForByte() {
        for host in Self.hosts {
            for name in Self.names {
                let address = YouTubeThumbnail.address(videoID: Self.id, name: name, host: host)
                #expect(YouTubeThumbnail.isAddress(address, of: Self.id), "\(address)")
                #expect(YouTubeThumbnail.isAddress("http" + address.dropFirst("https".count), of: Self.id), "\(address)")
                let video = Video(id: Self.id, channelID: "UC", title: "t", published: Date(timeIntervalSince1970: 0), thumbnailURL: address)
                #expect(video.thumbnailURL.map { Array($0.utf8) } == Array(address.utf8))
            }
        }
    }

    @Test func otherAddressesAreNotYouTubes() {
        let others = [
            "https://i.ytimg.com/vi/zzzzzzzzzzz/hqdefault.jpg", "https://example.com/vi/abcDEF12345/hqdefault.jpg",
            "https://i.ytimg.com.evil.example/vi/abcDEF12345/hqdefault.jpg", "https://xi.ytimg.com/vi/abcDEF12345/hqdefault.jpg",
            "https://ia.ytimg.com/vi/abcDEF12345/hqdefault.jpg", "https://i.ytimg.com/vi_webp/abcDEF12345/hqdefault.webp",
            "https://i.ytimg.com/vi/abcDEF12345/sub/hqdefault.jpg", "https://i.ytimg.com/vi/abcDEF12345/hqdefault.png",
            "i.ytimg.com/vi/abcDEF12345", "",
        ]
        for other in others { #expect(!YouTubeThumbnail.isAddress(other, of: Self.id), "\(other)") }
    }
}
