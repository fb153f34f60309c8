import Foundation
import MeTubeCore

/// The directory of offline copies, one file per video named `VIDEOID.EXT`. Copies are only
/// ever looked up here, by name, as regular files (never a symbolic link): a path yt-dlp prints
/// is not trusted, and a file it wrote elsewhere is not a copy.
public struct DownloadDirectory: Sendable {
    /// The extensions a finished copy has.
    public static let mediaExtensions: Set<String> = ["mp4", "webm", "mkv", "m4a", "mov", "flv", "3gp", "opus", "ogg", "mp3", "m4v"]

    /// The directory.
    public let url: URL

    /// The directory at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// One copy on disk.
    public struct Copy: Sendable, Equatable {
        /// The file.
        public var file: URL
        /// Its size.
        public var bytes: Int64
    }

    /// Creates the directory when it is missing.
    public func create() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The finished copies by video id.
    public func copies() -> [String: Copy] {
        var copies: [String: Copy] = [:]
        for (name, size) in regularFiles() {
            guard let dot = name.firstIndex(of: "."), VideoID.isValid(String(name[..<dot])),
                  Self.mediaExtensions.contains(String(name[name.index(after: dot)...])) else { continue }
            copies[String(name[..<dot])] = Copy(file: url.appendingPathComponent(name), bytes: size)
        }
        return copies
    }

    /// The finished copy of `videoID`, if there is one.
    public func copy(of videoID: String) -> Copy? {
        guard VideoID.isValid(videoID) else { return nil }
        for ext in Self.mediaExtensions.sorted() {
            let file = url.appendingPathComponent("\(videoID).\(ext)")
            if let size = Self.regularFileSize(file.path) { return Copy(file: file, bytes: size) }
        }
        return nil
    }

    /// Bytes every file in the directory takes: copies, and partial downloads.
    public func usedBytes() -> Int64 {
        regularFiles().reduce(0) { $0 + $1.size }
    }

    /// Bytes of `videoID`'s files (its copy or its partial download).
    public func bytes(of videoID: String) -> Int64 {
        regularFiles().filter { $0.name.hasPrefix(videoID + ".") }.reduce(0) { $0 + $1.size }
    }

    /// Removes `videoID`'s copy and partial download.
    public func remove(_ videoID: String) {
        guard VideoID.isValid(videoID) else { return }
        for file in regularFiles() where file.name.hasPrefix(videoID + ".") {
            unlink(url.appendingPathComponent(file.name).path)
        }
    }

    private func regularFiles() -> [(name: String, size: Int64)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.compactMap { name in
            Self.regularFileSize(url.appendingPathComponent(name).path).map { (name, $0) }
        }
    }

    private static func regularFileSize(_ path: String) -> Int64? {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(status.st_size)
    }
}
