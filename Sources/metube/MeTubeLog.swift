import Foundation
import Logging
import MeTubeCore

/// metube's log: `$XDG_STATE_HOME/metube/metube.log` (rotated at 1 MiB, 3 kept), at
/// `$METUBE_LOG_LEVEL` (default `info`). Every module's swift-log `Logger` writes there; tokens
/// are redacted.
enum MeTubeLog {
    /// The file every logger writes to.
    static let file = RotatingLogFile(url: RotatingLogFile.defaultURL())

    /// The command's own logger.
    static let command = Logger(label: "metube")

    /// Routes swift-log to the log file. Call once, before any logger is made.
    static func bootstrap(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let level = environment["METUBE_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in FileLogHandler(label: label, file: file, level: level) }
    }
}
