import Foundation
import MeTubeCore
import TestSupport
import MeTubeStore
@testable import MeTubeTUI

/// A small hand-made library with a fixed "now", for model and golden tests.
enum Fixture {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let size = TerminalSize(width: 72, height: 12)

    static let channels = [
        Channel(id: SyntheticLibrary.channelID(1), title: "Digital Foundry"),
        Channel(id: SyntheticLibrary.channelID(2), title: "東京チャンネル"),
        Channel(id: SyntheticLibrary.channelID(3), title: "Kitchen Synth"),
    ]

    /// Video `n` (0 newest) of channel `channel`, published `minutes` before `now`.
    static func video(_ number: Int, channel: Int, minutes: Double, title: String, duration: Int?, shortLink: Bool = false) -> Video {
        Video(
            id: SyntheticLibrary.videoID(number), channelID: SyntheticLibrary.channelID(channel), title: title,
            published: now.addingTimeInterval(-minutes * 60), duration: duration, isShortLink: shortLink
        )
    }

    static let videos = [
        video(0, channel: 1, minutes: 0.5, title: "PS6 hardware deep dive: what the specs really mean for games", duration: 1_834),
        video(1, channel: 2, minutes: 42, title: "東京の夜景を歩く 🌃 4K散歩", duration: 3_723),
        video(2, channel: 3, minutes: 5 * 60, title: "Modular synth in 10 minutes", duration: 600),
        video(3, channel: 1, minutes: 3 * 1_440, title: "Short: frame pacing", duration: 45),
        video(4, channel: 2, minutes: 20 * 1_440, title: "🚀 Launch day recap 🎉", duration: nil),
        video(5, channel: 3, minutes: 90 * 1_440, title: "Sourdough and a Moog", duration: 754, shortLink: false),
        video(6, channel: 1, minutes: 800 * 1_440, title: "Retro console restoration story", duration: 5_400),
    ]

    static func mark(_ number: Int, _ status: WatchStatus, _ state: SyncState = .synced, theirs: WatchStatus? = nil) -> Mark {
        Mark(
            videoID: SyntheticLibrary.videoID(number), status: status, hlc: HybridTimestamp(millis: 1_000 + Int64(number)),
            deviceID: "laptop", syncState: state,
            theirs: theirs.map { ServerVersion(changeTag: "t\(number)", status: $0, deviceID: "phone") }
        )
    }

    static let marks = [
        mark(1, .unwatched, .pending),
        mark(2, .watched, .synced),
        mark(4, .skipped, .conflict, theirs: .watched),
        mark(6, .watched, .synced),
    ]

    static var library: Library { Library(channels: channels, videos: videos, marks: marks) }

    /// Fetch results: Digital Foundry fetched fine 2 min ago, 東京チャンネル failing since an hour ago,
    /// Kitchen Synth never fetched directly.
    static let channelFetches = [
        SyntheticLibrary.channelID(1): ChannelFetchResult(lastSuccess: now.addingTimeInterval(-120)),
        SyntheticLibrary.channelID(2): ChannelFetchResult(
            lastSuccess: now.addingTimeInterval(-86_400), failingSince: now.addingTimeInterval(-3_600), lastError: "HTTP 404"
        ),
    ]

    static func model(size: TerminalSize = size, unicode: Bool = true, config: TUIConfig = TUIConfig(), statusesKnown: Bool = true) -> ScreenModel {
        ScreenModel(library: library, size: size, config: config, unicode: unicode, now: now, timeZone: TimeZone(identifier: "UTC")!, statusesKnown: statusesKnown)
    }

    /// The TUI settings of config-file `text`.
    static func config(_ text: String) throws -> TUIConfig {
        try TUIConfig(settings: Settings(parsing: text))
    }

    /// The ids of the videos in the feed's rows, in order.
    static func rowIDs(_ model: ScreenModel) -> [String] {
        model.rows.map { model.library.videos[$0].id }
    }
}

extension ScreenModel {
    /// Presses each key in turn and returns every effect asked for.
    @discardableResult
    mutating func press(_ keys: Key...) -> [Effect] {
        keys.flatMap { handle($0) }
    }

    /// Types `text` one character at a time.
    @discardableResult
    mutating func type(_ text: String) -> [Effect] {
        text.flatMap { handle(.character($0)) }
    }
}
