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

    /// How long a write waits for another process: `$METUBE_LOCK_TIMEOUT` seconds, else 5.
    var storeOptions: StoreOptions {
        let seconds = ProcessInfo.processInfo.environment["METUBE_LOCK_TIMEOUT"].flatMap(Double.init) ?? 5
        return StoreOptions(lockTimeout: .milliseconds(Int(max(0, seconds) * 1000)))
    }

    /// Opens the store, printing recovery notices to stderr; a failure ends the command.
    func openStore() throws -> Store {
        do {
            let store = try Store.open(at: directory, options: storeOptions)
            for notice in store.takeNotices() { printError("note: \(notice)") }
            return store
        } catch {
            throw error.exit
        }
    }

    /// Reads the configuration file; a malformed one ends the command.
    func config() throws -> ConfigFile {
        do {
            return try ConfigFile.load(from: configPath.map { URL(fileURLWithPath: $0) } ?? ConfigFile.defaultURL())
        } catch {
            throw fail(error.description, code: ExitStatus.badInput)
        }
    }

    /// Whether a video without a mark is known to be unwatched: no status service is configured,
    /// or a status pull has completed.
    func statusesKnown(_ store: Store) throws -> Bool {
        try config()["status", "url"] == nil || store.syncSnapshot().lastStatusSync != nil
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
