import Foundation

/// The user's configuration file, `$XDG_CONFIG_HOME/metube/config.toml` (else
/// `~/.config/metube/config.toml`), in the subset of TOML metube needs: `[section]` headers and
/// `key = value` lines where a value is a "string", a whole or decimal number, or true/false;
/// `#` starts a comment.
public struct ConfigFile: Sendable, Equatable {
    /// Values by section, then key. Keys before any header are in the section "".
    public private(set) var sections: [String: [String: ConfigValue]] = [:]

    /// An empty configuration: every setting at its default.
    public init() {}

    /// Parses `text`; a line that is not understood is an error naming the line.
    public init(parsing text: String, source: String = "config.toml") throws(MeTubeCoreError) {
        var section = ""
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = Self.stripComment(String(rawLine)).trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            let location = "\(source) line \(offset + 1)"
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw .malformedInput(format: "config", location: location, reason: "a section header looks like [name]")
                }
                section = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw .malformedInput(format: "config", location: location, reason: "expected key = value")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            let valueText = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, let value = ConfigValue(parsing: valueText) else {
                throw .malformedInput(format: "config", location: location, reason: "cannot read the value of \(key.isEmpty ? "an empty key" : key): \(valueText)")
            }
            sections[section, default: [:]][key] = value
        }
    }

    /// Reads the file at `url`; a missing file is an empty configuration.
    public static func load(from url: URL) throws(MeTubeCoreError) -> ConfigFile {
        guard let data = FileManager.default.contents(atPath: url.path) else { return ConfigFile() }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .malformedInput(format: "config", location: url.path, reason: "not UTF-8 text")
        }
        return try ConfigFile(parsing: text, source: url.path)
    }

    /// The default location of the configuration file for `environment`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["METUBE_CONFIG"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent("metube/config.toml")
    }

    /// The value of `key` in `section`, if set.
    public subscript(section: String, key: String) -> ConfigValue? {
        sections[section]?[key]
    }

    /// Sets `key` in `section`.
    public mutating func set(_ value: ConfigValue, for key: String, in section: String) {
        sections[section, default: [:]][key] = value
    }

    /// The configuration written back as text, sections and keys sorted.
    public func rendered() -> String {
        sections.keys.sorted().map { name in
            let lines = sections[name]!.keys.sorted().map { "\($0) = \(sections[name]![$0]!.rendered)" }
            return (name.isEmpty ? [] : ["[\(name)]"]) + lines
        }.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    private static func stripComment(_ line: String) -> String {
        var inString = false
        var previous: Character = " "
        for (offset, character) in line.enumerated() {
            if character == "\"", previous != "\\" { inString.toggle() }
            if character == "#", !inString { return String(line.prefix(offset)) }
            previous = character
        }
        return line
    }
}

/// One value in the configuration file.
public enum ConfigValue: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)

    init?(parsing text: String) {
        if text == "true" { self = .bool(true); return }
        if text == "false" { self = .bool(false); return }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
            var result = ""
            var escaping = false
            for character in text.dropFirst().dropLast() {
                if escaping {
                    switch character {
                    case "n": result.append("\n")
                    case "t": result.append("\t")
                    default: result.append(character)
                    }
                    escaping = false
                } else if character == "\\" {
                    escaping = true
                } else {
                    result.append(character)
                }
            }
            self = .string(result)
            return
        }
        guard let number = Double(text.replacingOccurrences(of: "_", with: "")) else { return nil }
        self = .number(number)
    }

    /// The value as a string, if it is one.
    public var string: String? { if case let .string(value) = self { value } else { nil } }
    /// The value as a number, if it is one.
    public var number: Double? { if case let .number(value) = self { value } else { nil } }
    /// The value as a boolean, if it is one.
    public var bool: Bool? { if case let .bool(value) = self { value } else { nil } }

    var rendered: String {
        switch self {
        case let .string(value): "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case let .number(value): value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case let .bool(value): value ? "true" : "false"
        }
    }
}
