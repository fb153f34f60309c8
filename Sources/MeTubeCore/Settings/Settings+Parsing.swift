import Foundation
import TOMLKit

extension Settings {
    /// The defaults overlaid by the TOML `text` of the config file `file` (the name used in
    /// messages). Unknown sections and keys, wrong types and out-of-range values are errors
    /// naming the file, the line and the nearest valid key.
    public init(parsing text: String, file: String = "config.toml") throws(SettingsError) {
        self.init()
        self.file = file
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .inFile(file, line: error.source.begin.line, setting: nil, message: error.description)
        } catch {
            throw .inFile(file, line: nil, setting: nil, message: "not valid TOML")
        }
        let lines = SettingsSourceLines(text)
        for sectionName in root.keys.sorted() {
            if sectionName == "views" || sectionName == "rules" {
                try readViewsOrRules(sectionName, root[sectionName], text: text, file: file, lines: lines)
                continue
            }
            guard let section = root[sectionName]?.table else {
                let home = SettingName.allCases.first { $0.key == sectionName || $0.deprecatedKeys.contains(sectionName) }
                let hint = home.map { "did you mean [\($0.section)] \($0.key)?" } ?? "sections are " + SettingName.sections.map { "[\($0)]" }.joined(separator: ", ")
                throw .inFile(file, line: lines.line(section: "", key: sectionName), setting: sectionName, message: "settings belong in a section; \(hint)")
            }
            guard SettingName.sections.contains(sectionName) else {
                throw .inFile(file, line: lines.line(section: sectionName), setting: "[\(sectionName)]",
                              message: "unknown section; \(NearestName.hint(for: sectionName, among: SettingName.sections))")
            }
            if sectionName == "keys" {
                try readKeyBindings(section, file: file, lines: lines)
            } else {
                try readSection(sectionName, section, file: file, lines: lines)
            }
        }
    }

    /// The largest config file read, in bytes.
    public static let maximumFileSize = 1 << 20

    /// Reads the config file at `url`; a missing file gives the defaults; one over
    /// ``maximumFileSize`` is refused.
    public static func load(from url: URL) throws(SettingsError) -> Settings {
        guard FileManager.default.fileExists(atPath: url.path) else { return Settings() }
        var status = stat()
        if stat(url.path, &status) == 0, status.st_size > maximumFileSize {
            throw SettingsError(location: url.path, message: "is \(status.st_size) bytes; a config file is at most \(maximumFileSize)")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw SettingsError(location: url.path, message: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8), !text.contains("\0") else {
            throw SettingsError(location: url.path, message: "is not UTF-8 text")
        }
        return try Settings(parsing: text, file: url.path)
    }

    /// The config file's location: `$METUBE_CONFIG`, else `$XDG_CONFIG_HOME/metube/config.toml`,
    /// else `~/.config/metube/config.toml`.
    public static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let explicit = environment["METUBE_CONFIG"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory(), isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent("metube/config.toml")
    }

    private mutating func readSection(_ sectionName: String, _ section: TOMLTable, file: String, lines: SettingsSourceLines) throws(SettingsError) {
        for key in section.keys.sorted() {
            let line = lines.line(section: sectionName, key: key)
            guard let match = SettingName.named(key, in: sectionName) else {
                let valid = SettingName.allCases.filter { $0.section == sectionName }.map(\.key)
                throw .inFile(file, line: line, setting: "[\(sectionName)] \(key)", message: "unknown setting; \(NearestName.hint(for: key, among: valid))")
            }
            let (name, isDeprecated) = match
            let setting = "[\(sectionName)] \(key)"
            let raw = section[key].map(Self.raw) ?? .other("value")
            guard let value = SettingValue(raw, as: name.kind) else {
                throw .inFile(file, line: line, setting: setting, message: "must be \(name.kind.expectation), not \(name.kind == .apiKey ? "the value given (not shown)" : raw.description)")
            }
            if isDeprecated {
                deprecations.append("\(line.map { "\(file):\($0)" } ?? file): [\(sectionName)] \(key) is deprecated; write \(name.key)")
            }
            set(name, to: value, from: .file)
            locations[name] = line.map { "\(file):\($0)" } ?? file
        }
    }

    private mutating func readKeyBindings(_ section: TOMLTable, file: String, lines: SettingsSourceLines) throws(SettingsError) {
        for action in section.keys.sorted() {
            let line = lines.line(section: "keys", key: action)
            let location = line.map { "\(file):\($0)" } ?? file
            let names: [String]?
            if let text = section[action]?.string {
                names = text.split(separator: " ").map(String.init)
            } else if let array = section[action]?.array {
                let strings = array.compactMap(\.string)
                names = strings.count == array.count ? strings : nil
            } else {
                names = nil
            }
            guard let names, !names.isEmpty else {
                throw SettingsError(location: location, setting: "[keys] \(action)",
                                    message: "a binding is a string of key names separated by spaces, e.g. \"j Down\", or an array of them")
            }
            keyBindings.append(KeyBindingSetting(action: action, keys: names, location: location))
        }
    }

    private static func raw(_ value: any TOMLValueConvertible) -> SettingValue.Raw {
        switch value.type {
        case .string: value.string.map(SettingValue.Raw.string) ?? .other("string")
        case .int: value.int.map(SettingValue.Raw.integer) ?? .other("integer")
        case .double: value.double.map(SettingValue.Raw.number) ?? .other("float")
        case .bool: value.bool.map(SettingValue.Raw.bool) ?? .other("boolean")
        case .array:
            value.array.flatMap { array in
                let strings = array.compactMap(\.string)
                return strings.count == array.count ? SettingValue.Raw.strings(strings) : nil
            } ?? .other("array of non-strings")
        default: .other(value.type.rawValue)
        }
    }
}
