import Foundation
import MeTubeCore

extension Store {
    /// The largest segment file read; a bigger one is damaged.
    static let maxSegmentFileBytes = 256 * 1024

    /// The sponsor segments kept for `videoID`, read from `segments/VIDEOID.json` beside the
    /// store's files (screened again on the way in); `nil` when none were kept.
    public func sponsorSegments(of videoID: String) throws(StoreError) -> SponsorSegmentRecord? {
        let path = try segmentFilePath(videoID)
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        guard status.st_size <= Self.maxSegmentFileBytes else {
            throw .corrupt(path: path, reason: "\(status.st_size) bytes; a segment file is at most \(Self.maxSegmentFileBytes)")
        }
        guard let data = try FileIO.read(path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard var record = try? decoder.decode(SponsorSegmentRecord.self, from: data), record.videoID == videoID else {
            throw .corrupt(path: path, reason: "not the sponsor segments of \(videoID)")
        }
        record.segments = SponsorSegment.screened(record.segments, categories: record.categories, duration: nil)
        return record
    }

    /// Keeps `record` (replacing what was kept for its video) atomically and durably.
    public func saveSponsorSegments(_ record: SponsorSegmentRecord) throws(StoreError) {
        let path = try segmentFilePath(record.videoID)
        try FileIO.makeDirectory(directory.appendingPathComponent("segments").path)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        let data: Data
        do {
            data = try encoder.encode(record)
        } catch {
            throw .writeFailed(path: path, reason: "cannot encode the segments: \(error)")
        }
        guard data.count <= Self.maxSegmentFileBytes else {
            throw .writeFailed(path: path, reason: "\(data.count) bytes of segments; at most \(Self.maxSegmentFileBytes)")
        }
        try FileIO.replaceAtomically(path, with: data)
    }

    private func segmentFilePath(_ videoID: String) throws(StoreError) -> String {
        guard VideoID.isValid(videoID) else { throw .unknownVideo(DisplayText.line(videoID, limit: 40)) }
        return directory.appendingPathComponent("segments/\(videoID).json").path
    }
}
