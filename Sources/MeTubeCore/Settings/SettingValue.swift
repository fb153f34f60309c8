import Foundation

/// The kind of a setting's value, with the range a value must lie in.
public enum SettingKind: Sendable, Equatable {
    /// A string.
    case text
    /// An `http` or `https` URL with a host.
    case webURL
    /// One of these strings.
    case choice([String])
    /// A whole number in the range.
    case whole(ClosedRange<Int>)
    /// A number of seconds in the range; when `zeroTurnsOff`, 0 is allowed too and means "never".
    case seconds(ClosedRange<Double>, zeroTurnsOff: Bool)
    /// A number in the range, such as a share of a video's length.
    case number(ClosedRange<Double>)
    /// true or false.
    case flag
    /// An array of one or more of these strings.
    case list([String])
    /// An absolute path (starting with `/`).
    case absolutePath
    /// A string holding this placeholder, e.g. `{videoId}`.
    case template(String)
    /// A Google API key: 1…256 characters of `A-Z a-z 0-9 - _`.
    case apiKey

    /// What a value of this kind looks like, for messages.
    public var expectation: String {
        switch self {
        case .text: "a \"string\""
        case .webURL: "an http(s) URL such as \"http://127.0.0.1:8787\""
        case .choice(let options): "one of " + options.map { "\"\($0)\"" }.joined(separator: ", ")
        case .whole(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .seconds(let range, let zeroTurnsOff):
            "a number of seconds from \(SettingValue.seconds(range.lowerBound).text) to \(SettingValue.seconds(range.upperBound).text)" + (zeroTurnsOff ? ", or 0 for never" : "")
        case .number(let range): "a number from \(SettingValue.number(range.lowerBound).text) to \(SettingValue.number(range.upperBound).text)"
        case .flag: "true or false"
        case .list(let options): "an array of one or more of " + options.map { "\"\($0)\"" }.joined(separator: ", ")
        case .absolutePath: "an absolute path such as \"/home/me/Videos\""
        case .template(let placeholder): "a string containing \(placeholder)"
        case .apiKey: "a YouTube Data API key (1 to 256 of A-Z, a-z, 0-9, - and _)"
        }
    }
}

/// One setting's value, checked against its ``SettingKind``.
public enum SettingValue: Sendable, Equatable {
    case text(String)
    case whole(Int)
    case seconds(Double)
    case number(Double)
    case flag(Bool)
    case list([String])

    /// The value as the config file writes it.
    public var text: String {
        switch self {
        case .text(let value): "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .whole(let value): String(value)
        case .seconds(let value), .number(let value): value.rounded() == value ? String(Int(value)) : String(value)
        case .flag(let value): value ? "true" : "false"
        case .list(let values): "[" + values.map { SettingValue.text($0).text }.joined(separator: ", ") + "]"
        }
    }

    private static func isWebURL(_ text: String) -> Bool {
        guard text.utf8.count <= 2_048, let components = URLComponents(string: text) else { return false }
        return ["http", "https"].contains(components.scheme?.lowercased() ?? "") && !(components.host ?? "").isEmpty
    }

    /// Whether `text` looks like a Google API key: 1…256 characters of `A-Z a-z 0-9 - _`.
    public static func isAPIKey(_ text: String) -> Bool {
        (1...256).contains(text.utf8.count) && text.utf8.allSatisfy(ChannelID.isIDByte)
    }

    /// The raw value read from a file or the environment, before it is checked.
    enum Raw {
        case string(String)
        case integer(Int)
        case number(Double)
        case bool(Bool)
        case strings([String])
        case other(String)

        var description: String {
            switch self {
            case .string(let value): "\"\(value)\""
            case .integer(let value): String(value)
            case .number(let value): String(value)
            case .bool(let value): String(value)
            case .strings(let values): "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            case .other(let type): "a TOML \(type)"
            }
        }
    }

    /// `raw` checked against `kind`; `nil` when it is of the wrong type or out of range.
    init?(_ raw: Raw, as kind: SettingKind) {
        var raw = raw
        switch (kind, raw) {
        case (.seconds, .integer(let value)), (.number, .integer(let value)): raw = .number(Double(value))
        default: break
        }
        switch (kind, raw) {
        case (.text, .string(let value)):
            self = .text(value)
        case (.webURL, .string(let value)) where Self.isWebURL(value):
            self = .text(value)
        case (.absolutePath, .string(let value)) where value.hasPrefix("/") && !value.contains("\0"):
            self = .text(value)
        case (.template(let placeholder), .string(let value)) where value.contains(placeholder):
            self = .text(value)
        case (.apiKey, .string(let value)) where Self.isAPIKey(value):
            self = .text(value)
        case (.choice(let options), .string(let value)) where options.contains(value):
            self = .text(value)
        case (.whole(let range), .integer(let value)) where range.contains(value):
            self = .whole(value)
        case (.seconds(let range, let zeroTurnsOff), .number(let value)) where value.isFinite && (range.contains(value) || (zeroTurnsOff && value == 0)):
            self = .seconds(value)
        case (.number(let range), .number(let value)) where value.isFinite && range.contains(value):
            self = .number(value)
        case (.flag, .bool(let value)):
            self = .flag(value)
        case (.list(let options), .strings(let values)) where !values.isEmpty && values.allSatisfy(options.contains):
            var seen: Set<String> = []
            self = .list(values.filter { seen.insert($0).inserted })
        default:
            return nil
        }
    }
}

/// Where a setting's value came from, weakest first: a flag beats the environment, which beats
/// the file, which beats the default.
public enum SettingOrigin: String, Sendable, Equatable, Comparable {
    case `default`, file, environment, flag

    private var rank: Int {
        switch self {
        case .default: 0
        case .file: 1
        case .environment: 2
        case .flag: 3
        }
    }

    public static func < (lhs: SettingOrigin, rhs: SettingOrigin) -> Bool { lhs.rank < rhs.rank }
}
