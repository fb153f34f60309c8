import Foundation
import Logging

/// A swift-log handler writing one line an event to a ``RotatingLogFile``: time, level, label,
/// message and metadata, made one safe line (``DisplayText``) and redacted (``LogRedaction``).
public struct FileLogHandler: LogHandler {
    /// Metadata added to every event.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level written.
    public var logLevel: Logger.Level
    /// Adds task-local metadata, if set.
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let file: RotatingLogFile

    /// A handler for the logger `label`, writing to `file` from `level` up.
    public init(label: String, file: RotatingLogFile, level: Logger.Level = .info) {
        self.label = label
        self.file = file
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let details = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let time = Date().ISO8601Format()
        file.append(DisplayText.line("\(time) [\(getpid())] \(event.level) \(label): \(event.message)\(details)", limit: 8_000))
    }
}
