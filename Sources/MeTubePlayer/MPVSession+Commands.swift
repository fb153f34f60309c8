import Foundation

extension MPVSession {
    /// How long an OSD message stays on screen, in milliseconds.
    static let osdMilliseconds = 3000

    /// Seeks to `seconds` from the start (exactly, not to a keyframe); a value that is not a
    /// finite non-negative number is not sent.
    public func seek(to seconds: Double) {
        guard let text = MPVCommand.secondsText(seconds) else { return }
        send("{\"command\":[\"seek\",\"\(text)\",\"absolute+exact\"]}\n")
    }

    /// Shows `text` on mpv's OSD (`show-text`) for a few seconds.
    public func showText(_ text: String) {
        guard let encoded = try? JSONEncoder().encode(text), let quoted = String(data: encoded, encoding: .utf8) else { return }
        send("{\"command\":[\"show-text\",\(quoted),\(Self.osdMilliseconds)]}\n")
    }
}
