import Foundation
import MeTubeCore

/// The schema version this build writes. Older files migrate additively; newer ones open read-only.
public let currentSchemaVersion = 1

/// The parts of the store that have a snapshot file of their own.
enum StorePart: String, CaseIterable, Sendable {
    case library
    case marks
    case sync

    /// The snapshot's file name.
    var fileName: String { "\(rawValue).json" }
}

/// `library.json`: channels and videos.
struct LibraryFile: Codable {
    var schemaVersion: Int
    var generation: Int
    var channels: [Channel]
    var videos: [Video]
}

/// `marks.json`: every mark.
struct MarksFile: Codable {
    var schemaVersion: Int
    var generation: Int
    var marks: [Mark]
}

/// `sync.json`: what the syncs remember.
struct SyncFile: Codable {
    var schemaVersion: Int
    var generation: Int
    var sync: SyncSnapshot
}

/// The JSON coders every store file uses, so dates and key order agree everywhere.
enum StoreCoding {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
