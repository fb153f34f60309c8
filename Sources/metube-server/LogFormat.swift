import ArgumentParser
import Logging

/// How `serve` writes its log lines to stderr.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    /// swift-log's plain text lines.
    case text
    /// One JSON object per line, for log shippers.
    case json

    /// The handler for the logger `label`.
    func makeHandler(label: String) -> any LogHandler {
        switch self {
        case .text: StreamLogHandler.standardError(label: label)
        case .json: JSONLogHandler(label: label)
        }
    }
}
