import Foundation
import MeTubeCore
import Testing

/// The installed example config (`Resources/config/config.toml`) and its man page
/// (`Resources/man/metube-config.5`) describe every setting there is, with its real default.
@Suite struct ExampleConfigTests {
    static let resources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources")

    private static func text(_ relative: String) throws -> String {
        try String(contentsOf: resources.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The lines of `section` in the example, from its header to the next one.
    private static func lines(of section: String, in example: String) -> [Substring] {
        let lines = example.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring("[\(section)]")) else { return [] }
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { !$0.hasPrefix("[") })
    }

    @Test func theExampleParsesWithoutDeprecations() throws {
        let settings = try Settings(parsing: try Self.text("config/config.toml"), file: "config.toml")
        #expect(settings.deprecations.isEmpty)
    }

    @Test func everySettingIsInTheExampleWithItsDefault() throws {
        let example = try Self.text("config/config.toml")
        let parsed = try Settings(parsing: example, file: "config.toml")
        let defaults = Settings()
        for name in SettingName.allCases {
            let section = Self.lines(of: name.section, in: example)
            let active = section.contains { $0.hasPrefix("\(name.key) = ") }
            let commented = section.contains { $0.hasPrefix("# \(name.key) = ") }
            if name.defaultValue == nil {
                #expect(commented, "\(name.rawValue) has no default: the example shows it commented out")
            } else {
                #expect(active, "\(name.rawValue) is missing from the example")
                #expect(parsed.values[name] == defaults.values[name], "the example's \(name.rawValue) is not its default")
                #expect(parsed.origins[name] == .file)
            }
        }
        #expect(!Self.lines(of: "keys", in: example).isEmpty, "the example explains [keys]")
    }

    @Test func theManPageDescribesEverySetting() throws {
        let page = try Self.text("man/metube-config.5")
        for section in SettingName.sections {
            #expect(page.contains(".Ss [\(section)]"), "metube-config(5) has no [\(section)] section")
        }
        for name in SettingName.allCases {
            #expect(page.contains(".It Cm \(name.key) No = "), "metube-config(5) does not describe \(name.rawValue)")
        }
    }
}
