import Foundation
import MeTubeCore

/// A fresh directory under the system's temporary folder, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates a new, empty directory whose name starts with `prefix`.
    public init(_ prefix: String = "metube-test") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Removes the directory and everything in it.
    public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A small synthetic library, quick enough for unit tests.
public func smallLibrary(videos: Int = 50, channels: Int = 5, marks: Int = 0) -> SyntheticLibrary {
    SyntheticLibrary(channelCount: channels, videoCount: videos, markCount: marks)
}
