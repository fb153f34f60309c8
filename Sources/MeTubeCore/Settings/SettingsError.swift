/// A setting that cannot be used: where it is, which one, and what is wrong, in one message a
/// user can act on. Every settings problem — the file, the environment, a flag, a key binding —
/// is one of these; `metube` exits 65 on it.
public struct SettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the value is: `path:line`, `path`, `environment NAME` or `--flag`.
    public var location: String
    /// The setting, e.g. `[hub] page-size`; `nil` when the problem is the whole file.
    public var setting: String?
    /// What is wrong and what would be right.
    public var message: String

    /// Creates an error.
    public init(location: String, setting: String? = nil, message: String) {
        self.location = location
        self.setting = setting
        self.message = message
    }

    /// An error at `line` of `file` (the file alone when the line is not known).
    public static func inFile(_ file: String, line: Int?, setting: String?, message: String) -> SettingsError {
        SettingsError(location: line.map { "\(file):\($0)" } ?? file, setting: setting, message: message)
    }

    public var description: String {
        [location, setting, message].compactMap { $0 }.joined(separator: ": ")
    }
}
