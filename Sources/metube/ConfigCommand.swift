import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeSync
import MeTubeTUI

/// `metube config show|check`: the settings in force and where each came from, or a check of the
/// config file that runs nothing.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the settings in force, or check the config file.",
        discussion: """
            Settings come from the defaults, then the config file, then the environment (METUBE_HUB_URL, \
            METUBE_LOCK_TIMEOUT), then command-line flags. Keys are kebab-case; the old snake_case spellings \
            are still read with a deprecation note. Exits 65 on an unknown section or key, a wrong type or a \
            value out of range, naming the file, the line and the nearest valid key.
            """,
        subcommands: [Show.self, Check.self],
        defaultSubcommand: Show.self
    )

    /// `metube config show`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the settings in force, each with where it came from.")

        @OptionGroup var store: StoreAccess

        func run() throws {
            let settings = try store.settings()
            let file = store.configFile.path
            let found = FileManager.default.fileExists(atPath: file)
            print("# config file: \(DisplayText.line(file)) (\(found ? "read" : "not found, defaults in force"))")
            print("# store: \(DisplayText.line(store.directory.path)) (\(store.directoryOrigin))")
            for section in SettingName.sections where section != "keys" {
                print("\n[\(section)]")
                for name in SettingName.allCases where name.section == section {
                    let origin = settings.origins[name] ?? .default
                    let value = settings.values[name].map { DisplayText.line($0.text) }
                    let line = name.kind == .apiKey && value != nil ? "# \(name.key) is set (not shown)" : value.map { "\(name.key) = \($0)" }
                    print((line ?? "# \(name.key) is not set") + "  # \(origin.rawValue)")
                }
            }
            print("\n[keys]")
            for binding in settings.keyBindings {
                let keys = binding.keys.map { "\"\(DisplayText.line($0, limit: 20))\"" }.joined(separator: ", ")
                print("\(DisplayText.line(binding.action, limit: 40)) = [\(keys)]  # file")
            }
            if settings.keyBindings.isEmpty { print("# none: the defaults of `?` in the TUI are in force") }
        }
    }

    /// `metube config check`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check the config file and the saved status account; change and run nothing.")

        @OptionGroup var store: StoreAccess

        func run() throws {
            let settings = try store.settings()
            do {
                _ = try TUIConfig(settings: settings)
            } catch {
                throw fail(error.description, code: ExitStatus.badInput)
            }
            _ = SyncConfiguration(settings: settings)
            _ = try MarkSyncAccountFiles.load()
            let found = FileManager.default.fileExists(atPath: store.configFile.path)
            print("\(DisplayText.line(store.configFile.path)): \(found ? "ok" : "not found; the defaults are in force")")
        }
    }
}
