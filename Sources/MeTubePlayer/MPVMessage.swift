import Foundation
import MeTubeCore

/// Reads one line of mpv's JSON IPC into the properties metube follows. Everything from the
/// socket is treated as hostile: lines are bounded, numbers must be finite seconds in range,
/// and anything else (replies, other events, garbage) is ignored.
enum MPVMessage {
    /// The longest line read; longer ones are dropped.
    static let maxLineBytes = 64 * 1024

    /// The observe commands that make mpv report the followed properties, one JSON line each.
    static let observeCommands: [String] = ["time-pos", "duration", "pause", "eof-reached"].enumerated().map { index, name in
        "{\"command\":[\"observe_property\",\(index + 1),\"\(name)\"]}\n"
    }

    /// What one line says.
    enum Parsed: Equatable {
        /// A followed property with a valid value.
        case property(PlayerProperty)
        /// A well-formed line metube does not follow (a reply, another event, a `null` value).
        case ignored
        /// Not JSON, not an object, too long, or a followed property with a value out of range.
        case garbage
    }

    static func parse(_ line: Data) -> Parsed {
        guard line.count <= maxLineBytes, let message = try? JSONDecoder().decode(Line.self, from: line) else { return .garbage }
        switch message.event {
        case "end-file"?: return message.reason == "eof" ? .property(.endOfFile(true)) : .ignored
        case "property-change"?: break
        default: return .ignored
        }
        guard let value = message.data else { return .ignored }
        switch (message.name, value) {
        case ("time-pos"?, .number(let number)): return PlaybackPosition.checked(number).map { .property(.timePosition($0)) } ?? .garbage
        case ("duration"?, .number(let number)): return PlaybackPosition.checked(number).map { .property(.duration($0)) } ?? .garbage
        case ("pause"?, .flag(let flag)): return .property(.paused(flag))
        case ("eof-reached"?, .flag(let flag)): return .property(.endOfFile(flag))
        case ("time-pos"?, _), ("duration"?, _), ("pause"?, _), ("eof-reached"?, _): return .garbage
        default: return .ignored
        }
    }

    /// The fields of an IPC line metube reads.
    private struct Line: Decodable {
        var event: String?
        var name: String?
        var reason: String?
        var data: Value?
    }

    /// A property value: a number, a flag, or something metube does not follow.
    private enum Value: Decodable {
        case number(Double)
        case flag(Bool)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .other
            }
        }
    }
}
