/// The small subset of TOML the config file uses: `[section]` headers, `key = value` lines with
/// string, integer, boolean or string-array values, and `#` comments.
///
/// Keys outside any section live in the section named `""`.
public struct TOMLDocument: Sendable, Equatable {
    /// One value of the subset.
    public enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
        case boolean(Bool)
        case strings([String])
    }

    /// One `key = value` line, with where it stood.
    public struct Entry: Sendable, Equatable {
        /// The key, as written.
        public var key: String
        /// The value.
        public var value: Value
        /// The line number, from 1.
        public var line: Int
    }

    /// The entries of each section, in file order.
    public private(set) var sections: [String: [Entry]] = [:]

    /// Parses `text`; throws ``TUIError/configInvalid(line:message:)`` on the first bad line.
    public init(parsing text: String) throws(TUIError) {
        var section = ""
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = Self.strippingComment(Substring(rawLine)).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw .configInvalid(line: number, message: "a section header looks like [keys]")
                }
                section = String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw .configInvalid(line: number, message: "expected key = value, found \"\(line)\"")
            }
            var key = line[..<equals].trimmingCharacters(in: .whitespaces)
            if key.count >= 2, key.hasPrefix("\""), key.hasSuffix("\"") { key = String(key.dropFirst().dropLast()) }
            guard !key.isEmpty else { throw .configInvalid(line: number, message: "missing key before =") }
            let value = try Self.value(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces), line: number)
            sections[section, default: []].append(Entry(key: key, value: value, line: number))
        }
    }

    /// The entries of `section`, empty when it is absent.
    public func entries(in section: String) -> [Entry] { sections[section] ?? [] }

    private static func strippingComment(_ line: Substring) -> String {
        var inString = false
        var escaped = false
        for index in line.indices {
            let character = line[index]
            if escaped { escaped = false; continue }
            if character == "\\" && inString { escaped = true } else if character == "\"" { inString.toggle() } else if character == "#" && !inString { return String(line[..<index]) }
        }
        return String(line)
    }

    private static func value(_ text: String, line: Int) throws(TUIError) -> Value {
        if text == "true" { return .boolean(true) }
        if text == "false" { return .boolean(false) }
        if let integer = Int(text.replacingOccurrences(of: "_", with: "")) { return .integer(integer) }
        if text.hasPrefix("\"") {
            var rest = Substring(text)
            let string = try quoted(&rest, line: line)
            guard rest.allSatisfy(\.isWhitespace) else { throw .configInvalid(line: line, message: "unexpected text after the string") }
            return .string(string)
        }
        if text.hasPrefix("[") && text.hasSuffix("]") {
            var rest = text.dropFirst().dropLast()
            var strings: [String] = []
            while true {
                rest = rest.drop(while: \.isWhitespace)
                if rest.isEmpty { break }
                strings.append(try quoted(&rest, line: line))
                rest = rest.drop(while: \.isWhitespace)
                if rest.isEmpty { break }
                guard rest.first == "," else { throw .configInvalid(line: line, message: "array items are separated by commas") }
                rest = rest.dropFirst()
            }
            return .strings(strings)
        }
        throw .configInvalid(line: line, message: "a value is a \"string\", a number, true/false or [\"a\", \"b\"]; found \(text.isEmpty ? "nothing" : text)")
    }

    /// Reads one double-quoted string with `\"`, `\\`, `\n` and `\t` escapes from the front of `text`.
    private static func quoted(_ text: inout Substring, line: Int) throws(TUIError) -> String {
        guard text.first == "\"" else { throw .configInvalid(line: line, message: "expected a \"quoted string\"") }
        text = text.dropFirst()
        var result = ""
        while let character = text.first {
            text = text.dropFirst()
            switch character {
            case "\"":
                return result
            case "\\":
                guard let escaped = text.first else { break }
                text = text.dropFirst()
                switch escaped {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "\"", "\\": result.append(escaped)
                default: throw .configInvalid(line: line, message: "unknown escape \\\(escaped)")
                }
            default:
                result.append(character)
            }
        }
        throw .configInvalid(line: line, message: "unterminated string")
    }
}
