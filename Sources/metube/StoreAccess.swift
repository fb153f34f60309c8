import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore

/// The options every command that touches the store shares.
struct StoreAccess: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: ArgumentHelp("The store directory.", discussion: "Default: $METUBE_DATA_DIR, else $XDG_DATA_HOME/metube, else ~/.local/share/metube.", valueName: "path"))
    var dataDirectory: String?

    @Option(name: .customLong("config"), help: ArgumentHelp("The configuration file.", discussion: "Default: $METUBE_CONFIG, else $XDG_CONFIG_HOME/metube/config.toml.", valueName: "path"))
    var configPath: String?

    /// The store directory these options name.
    var directory: URL {
        dataDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? StoreLocation.defaultDirectory()
    }

    /// The configuration file these options name.
    var configFile: URL {
        configPath.map { URL(fileURLWithPath: $0) } ?? Settings.defaultFile()
    }

    /// Where the store directory came from, for `metube config show`.
    var directoryOrigin: String {
        if dataDirectory != nil { return "flag --data-dir" }
        if let explicit = ProcessInfo.processInfo.environment["METUBE_DATA_DIR"], !explicit.isEmpty { return "environment METUBE_DATA_DIR" }
        return "default"
    }

    /// Opens the store, printing recovery notices to stderr; a failure ends the command. The
    /// lock timeout is `[store] lock-timeout` (or `$METUBE_LOCK_TIMEOUT`).
    func openStore() throws -> Store {
        let options = try storeOptions()
        do {
            let store = try Store.open(at: directory, options: options)
            for notice in store.takeNotices() { printError("note: \(notice)") }
            return store
        } catch {
            throw error.exit
        }
    }

    /// How to open the store: the lock timeout is `[store] lock-timeout` (or `$METUBE_LOCK_TIMEOUT`).
    func storeOptions() throws -> StoreOptions {
        StoreOptions(lockTimeout: try loadSettings().duration(.lockTimeout) ?? .zero)
    }

    /// The settings in force: the config file, the environment, then `flags` (flag, setting,
    /// value); deprecation notes go to stderr, and a bad setting ends the command with 65.
    func settings(flags: [(flag: String, name: SettingName, value: String)] = []) throws -> Settings {
        var settings = try loadSettings()
        do {
            for (flag, name, value) in flags { settings = try settings.applyingFlag(flag, name, value) }
        } catch {
            throw fail(error.description, code: ExitStatus.badInput)
        }
        for note in settings.deprecations { printError("note: \(note)") }
        return settings
    }

    private func loadSettings() throws -> Settings {
        do {
            return try Settings.load(from: configFile).applyingEnvironment(ProcessInfo.processInfo.environment).readingAPIKeyFile()
        } catch {
            throw fail(error.description, code: ExitStatus.badInput)
        }
    }

    /// Whether a video without a mark is known to be unwatched: no mark-sync account is saved, or a
    /// mark-sync pull has completed.
    func statusesKnown(_ store: Store) throws -> Bool {
        statusesKnown(store.syncSnapshot())
    }

    /// Whether a video without a mark is known to be unwatched, given the store's sync state.
    func statusesKnown(_ sync: SyncSnapshot) -> Bool {
        !MarkSyncAccountFiles.exist() || sync.lastMarkSync != nil
    }
}

/// Runs a store operation, turning its error into metube's message and exit code.
@discardableResult
func withStoreErrors<T>(_ body: () throws(StoreError) -> T) throws -> T {
    do { return try body() } catch { throw error.exit }
}

/// Writes `value` as sorted-key JSON to stdout.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
}
