import Foundation

/// The line on which each section and key of a TOML text starts, so that a message can point at
/// it (TOMLKit reports positions only for syntax errors).
struct SettingsSourceLines {
    private var lines: [String: Int] = [:]

    init(_ text: String) {
        var section = ""
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                section = Self.unquoted(line.drop { $0 == "[" }.prefix { $0 != "]" })
                if lines[section] == nil { lines[section] = offset + 1 }
            } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = "\(section).\(Self.unquoted(line[..<equals]))"
                if lines[key] == nil { lines[key] = offset + 1 }
            }
        }
    }

    /// The line of `section`'s header, or of `key` in `section`.
    func line(section: String, key: String? = nil) -> Int? {
        lines[key.map { "\(section).\($0)" } ?? section]
    }

    private static func unquoted(_ text: Substring) -> String {
        text.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
    }
}
