import Foundation
import Logging

/// Writes each log entry to stderr as one JSON object on one line:
/// `{"time":…,"level":…,"label":…,"message":…,"metadata":{…}}`.
struct JSONLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    let label: String

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var entry: [String: Any] = [
            "time": Date().formatted(.iso8601),
            "level": event.level.rawValue, "label": label, "message": "\(event.message)",
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        if !merged.isEmpty { entry["metadata"] = merged.mapValues(Self.plain) }
        guard var line = try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        line.append(UInt8(ascii: "\n"))
        FileHandle.standardError.write(line)
    }

    /// A metadata value as a JSON-serializable value.
    private static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array(let array): array.map(plain)
        case .dictionary(let dictionary): dictionary.mapValues(plain)
        }
    }
}
