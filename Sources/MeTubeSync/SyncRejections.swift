import Foundation

/// What the last sync found that a server refused: a hub watermark or a mark-sync token. Kept
/// in a small file next to the store (`sync-rejections.json`), so that `metube doctor` can
/// suggest a full resync; each sync rewrites its part.
public struct SyncRejections: Codable, Sendable, Equatable {
    /// The file's name in the store directory.
    public static let fileName = "sync-rejections.json"

    /// What was wrong with the hub watermark, when the last hub sync found it refused.
    public var hubWatermark: String?
    /// What was wrong with the mark-sync token, when the last mark-sync pull found it refused.
    public var markSyncToken: String?
    /// When this was last written.
    public var updated: Date?

    /// The keys of the JSON it is read from and written as: the mark-sync fields keep their older
    /// names (`status…`), which files and scripts already hold.
    enum CodingKeys: String, CodingKey {
        case hubWatermark, updated
        case markSyncToken = "statusSyncToken"
    }

    /// Whether nothing was refused.
    public var isEmpty: Bool { hubWatermark == nil && markSyncToken == nil }

    /// Creates a record.
    public init(hubWatermark: String? = nil, markSyncToken: String? = nil) {
        self.hubWatermark = hubWatermark
        self.markSyncToken = markSyncToken
    }

    /// The record of the store in `directory`; empty when there is none or it cannot be read.
    public static func load(from directory: URL) -> SyncRejections {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(fileName)),
              let record = try? decoder.decode(SyncRejections.self, from: data) else { return SyncRejections() }
        return record
    }

    /// Rewrites one part of the record of the store in `directory` (atomically; a failure to
    /// write only loses the doctor's hint).
    static func record(in directory: URL, _ change: (inout SyncRejections) -> Void) {
        var record = load(from: directory)
        let before = record
        change(&record)
        guard record != before else { return }
        let url = directory.appendingPathComponent(fileName)
        if record.isEmpty {
            try? FileManager.default.removeItem(at: url)
            return
        }
        record.updated = Date()
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try? encoder.encode(record).write(to: url, options: .atomic)
    }
}
