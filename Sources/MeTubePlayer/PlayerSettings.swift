import Foundation
import MeTubeCore

/// How videos are played, from the `[tui]` settings: tracked in mpv, or handed to the `open`
/// command untracked.
public struct PlayerSettings: Sendable, Equatable {
    /// Whether videos play in a tracked mpv.
    public var tracksMPV: Bool
    /// The mpv command line (the `open` template, else `mpv {url}`).
    public var command: MPVCommand
    /// The resume, save and watched rules.
    public var policy: PlaybackPolicy
    /// Whether opening marks the video watched at once (`mark-on-open = "always"`).
    public var marksAtStart: Bool

    /// The settings for `settings`: `player = "auto"` tracks mpv when `mpv` is on `PATH` and
    /// `open` is unset. With mpv, `mark-on-open = "on-success"` marks when the watched share
    /// (or the end) is reached, `always` marks at start, `never` never marks.
    public init(settings: Settings, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let open = settings.text(.open).flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        switch settings.text(.player) ?? "auto" {
        case "mpv": tracksMPV = true
        case "open": tracksMPV = false
        default: tracksMPV = open == nil && Self.isOnPath("mpv", environment: environment)
        }
        command = MPVCommand(template: open)
        let markOnOpen = settings.text(.markOnOpen) ?? "on-success"
        policy = PlaybackPolicy(resume: settings.text(.resume).flatMap(ResumeMode.init(rawValue:)) ?? .always,
                                rewind: settings.seconds(.resumeRewind) ?? 0, watchedAt: settings.number(.watchedAt),
                                marksWatched: markOnOpen == "on-success")
        marksAtStart = markOnOpen == "always"
    }

    /// Whether an executable `name` is in one of `PATH`'s directories.
    public static func isOnPath(_ name: String, environment: [String: String]) -> Bool {
        (environment["PATH"] ?? "").split(separator: ":").contains { directory in
            access("\(directory)/\(name)", X_OK) == 0
        }
    }
}
