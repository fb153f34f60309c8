import Foundation
import MeTubeCore

/// What the feed's row scan and the view picker's counts ask of every video, one byte per video
/// aligned with `library.videos`, worked out once per library change (``ScreenModel/recomputeStatuses()``)
/// so a key that switches views reads a compact column instead of every video's record.
struct VideoFlags: OptionSet, Sendable, Equatable {
    let rawValue: UInt8

    /// A Short (``Video/isShort``).
    static let short = VideoFlags(rawValue: 1 << 0)
    /// Not plainly available (upcoming, live, members-only, gone or private): the view's
    /// availability test must look at the video.
    static let notAvailable = VideoFlags(rawValue: 1 << 1)
    /// Has a playback position past the start (``FeedFilter/hasProgress(_:in:)``).
    static let hasProgress = VideoFlags(rawValue: 1 << 2)

    /// Every video's flags, aligned with `library.videos`; the videos with a playback position
    /// (few) are found by id, rather than every video looked up among the positions.
    static func of(_ library: Library) -> [VideoFlags] {
        var flags = library.videos.map { video in
            var flags: VideoFlags = []
            if video.isShort { flags.insert(.short) }
            if video.availability != .available { flags.insert(.notAvailable) }
            return flags
        }
        for videoID in library.playbackPositions.keys where FeedFilter.hasProgress(videoID, in: library) {
            if let index = library.index(of: videoID) { flags[index].insert(.hasProgress) }
        }
        return flags
    }

    /// Sets or clears ``hasProgress`` of the video `videoID` after its playback position changed.
    static func updateProgress(of videoID: String, in flags: inout [VideoFlags], library: Library) {
        guard let index = library.index(of: videoID), index < flags.count else { return }
        if FeedFilter.hasProgress(videoID, in: library) { flags[index].insert(.hasProgress) } else { flags[index].remove(.hasProgress) }
    }
}
