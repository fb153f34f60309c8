import Foundation
import TOMLKit

extension Settings {
    /// Every view: the built-in ones, then the config file's in the order written.
    public var allViews: [SavedView] { SavedView.builtIn + views }

    /// The view called `name`, if there is one.
    public func view(named name: String) -> SavedView? {
        allViews.first { $0.name == name }
    }

    /// Reads the `views` table or the `rules` array of tables.
    mutating func readViewsOrRules(_ sectionName: String, _ value: (any TOMLValueConvertible)?, text: String, file: String, lines: SettingsSourceLines) throws(SettingsError) {
        if sectionName == "views" {
            guard let table = value?.table else {
                throw .inFile(file, line: lines.line(section: "", key: "views"), setting: "views", message: "write each view as a [views.NAME] section with a query")
            }
            try readViews(table, text: text, file: file)
        } else {
            guard let array = value?.array else {
                throw .inFile(file, line: lines.line(section: "rules"), setting: "[rules]", message: "write each rule as a [[rules]] section (double brackets) with a query and an action")
            }
            try readRules(array, text: text, file: file)
        }
    }

    private mutating func readViews(_ table: TOMLTable, text: String, file: String) throws(SettingsError) {
        let headers = SectionHeaders(text)
        let builtIn = Set(SavedView.builtIn.map(\.name))
        for name in table.keys.sorted(by: { (headers.line(ofView: $0) ?? .max, $0) < (headers.line(ofView: $1) ?? .max, $1) }) {
            let line = headers.line(ofView: name)
            let setting = "[views.\(DisplayText.line(name, limit: 40))]"
            guard SavedView.isValidName(name) else {
                throw .inFile(file, line: line, setting: setting, message: "a view's name is 1–\(SavedView.maximumNameLength) letters, digits, - or _")
            }
            guard !builtIn.contains(name) else {
                throw .inFile(file, line: line, setting: setting, message: "\(name) is a built-in view; give yours another name")
            }
            guard let view = table[name]?.table else {
                throw .inFile(file, line: line, setting: setting, message: "a view is a section with a query, e.g. [views.music] query = \"tag:music and unwatched\"")
            }
            if let unknown = view.keys.first(where: { $0 != "query" }) {
                throw .inFile(file, line: line, setting: "\(setting) \(unknown)", message: "unknown setting; a view has only a query")
            }
            let query = try Self.query(view["query"], file: file, line: line, setting: "\(setting) query")
            views.append(SavedView(name: name, query: query))
        }
    }

    private mutating func readRules(_ array: TOMLArray, text: String, file: String) throws(SettingsError) {
        let headerLines = SectionHeaders(text).rulesLines
        guard array.count <= FeedRules.maximumCount else {
            throw .inFile(file, line: headerLines.first, setting: "[[rules]]", message: "at most \(FeedRules.maximumCount) rules")
        }
        for (index, element) in array.enumerated() {
            let line = index < headerLines.count ? headerLines[index] : nil
            let setting = "[[rules]] #\(index + 1)"
            guard let rule = element.table else {
                throw .inFile(file, line: line, setting: setting, message: "a rule is a [[rules]] section with a query and an action")
            }
            if let unknown = rule.keys.first(where: { !["query", "action", "name"].contains($0) }) {
                throw .inFile(file, line: line, setting: "\(setting) \(unknown)", message: "unknown setting; \(NearestName.hint(for: unknown, among: ["query", "action", "name"]))")
            }
            let query = try Self.query(rule["query"], file: file, line: line, setting: "\(setting) query")
            guard let actionText = rule["action"]?.string, let action = FeedRule.Action(rawValue: actionText) else {
                throw .inFile(file, line: line, setting: "\(setting) action", message: "must be \"skip\" or \"hide\"")
            }
            let name = rule["name"]?.string.map { DisplayText.line($0, limit: 60) } ?? "rule \(index + 1)"
            rules.rules.append(FeedRule(name: name.isEmpty ? "rule \(index + 1)" : name, query: query, action: action))
        }
    }

    /// The query of a view or rule, parsed; its mistakes name the column within the query.
    private static func query(_ value: (any TOMLValueConvertible)?, file: String, line: Int?, setting: String) throws(SettingsError) -> VideoQuery {
        guard let text = value?.string else {
            throw .inFile(file, line: line, setting: setting, message: "must be a query string, e.g. query = \"tag:music and unwatched\"")
        }
        do {
            return try VideoQuery(parsing: text)
        } catch {
            throw .inFile(file, line: line, setting: setting, message: error.description)
        }
    }
}

/// Where the `[views.NAME]` and `[[rules]]` headers of a config file are, by line, so views keep
/// the order written and messages point at the right section.
private struct SectionHeaders {
    private var viewLines: [String: Int] = [:]
    /// The line of each `[[rules]]` header, in order.
    private(set) var rulesLines: [Int] = []

    init(_ text: String) {
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[[") {
                if line.dropFirst(2).prefix(while: { $0 != "]" }).trimmingCharacters(in: .whitespaces) == "rules" { rulesLines.append(offset + 1) }
            } else if line.hasPrefix("[") {
                let header = line.dropFirst().prefix(while: { $0 != "]" }).trimmingCharacters(in: .whitespaces)
                guard header.hasPrefix("views.") else { continue }
                let name = header.dropFirst(6).trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
                if viewLines[name] == nil { viewLines[name] = offset + 1 }
            }
        }
    }

    /// The line of `[views.NAME]`.
    func line(ofView name: String) -> Int? { viewLines[name] }
}
