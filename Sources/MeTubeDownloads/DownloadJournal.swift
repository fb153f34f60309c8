import Foundation
import MeTubeCore

/// What the last downloads left to say, kept next to the copies (`.metube-downloads.json`) so
/// `metube download` shows why a video waits or failed after the run that tried it has ended.
public struct DownloadJournal: Sendable, Equatable, Codable {
    /// The file's name in the download directory.
    public static let fileName = ".metube-downloads.json"
    /// The largest journal read; a bigger one is ignored (it only repeats what a run finds again).
    static let maximumBytes = 1 << 20

    /// The videos that wait or failed, by id.
    public var entries: [String: DownloadState] = [:]

    /// An empty journal.
    public init() {}

    /// The journal in `directory`; an empty one when there is none or it cannot be read.
    public static func load(from directory: URL) -> DownloadJournal {
        let file = directory.appendingPathComponent(fileName)
        guard let handle = try? FileHandle(forReadingFrom: file) else { return DownloadJournal() }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumBytes + 1), data.count <= maximumBytes,
              let journal = try? JSONDecoder().decode(DownloadJournal.self, from: data) else { return DownloadJournal() }
        return journal
    }

    /// Writes the journal into `directory`, replacing the old one at once.
    public func save(to directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: directory.appendingPathComponent(Self.fileName), options: .atomic)
    }
}
