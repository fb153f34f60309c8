import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The stand-in `yt-dlp` (Tests/TestSupport/YTDLPStandIn, see its README) copied into a scratch
/// directory, with the channels it knows and the fault mode it is in.
public struct YTDLPStandIn: Sendable {
    /// How the stand-in behaves.
    public enum Mode: String, Sendable {
        case ok, slow, garbage, fail, huge, old, gated
    }

    /// The fifo `gate` the runs of mode `gated` each read one byte from before they answer, held
    /// open by the test for reading and writing, so that a run opening it never waits for a writer
    /// and a byte written before a run comes lets it through.
    public struct Gate: Sendable {
        let descriptor: Int32

        /// Lets one run through: the one waiting, else the next to come.
        public func letOneThrough() throws {
            let written = withUnsafeBytes(of: UInt8(ascii: "x")) { write(descriptor, $0.baseAddress, 1) }
            guard written == 1 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }

        /// Closes the test's end: a waiting run goes on, one coming later waits for a writer.
        public func close() {
            _ = Glibc.close(descriptor)
        }
    }

    /// One upload the stand-in lists.
    public struct Upload: Sendable, Codable {
        public var id: String
        public var title: String?
        public var duration: Double?

        public init(id: String, title: String?, duration: Double?) {
            self.id = id
            self.title = title
            self.duration = duration
        }
    }

    /// The scratch directory.
    public let directory: URL
    /// The executable to configure as yt-dlp.
    public var executable: URL { directory.appendingPathComponent("yt-dlp") }

    /// Copies the stand-in into a new scratch directory.
    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ytdlp-standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("channels"), withIntermediateDirectories: true)
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("YTDLPStandIn/yt-dlp")
        try FileManager.default.copyItem(at: source, to: executable)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
    }

    /// Makes `channelID` list `uploads`, newest first.
    public func setUploads(_ uploads: [Upload], for channelID: String) throws {
        try JSONEncoder().encode(uploads).write(to: directory.appendingPathComponent("channels/\(channelID).json"))
    }

    /// Makes each link URL (``ChannelLink/url``) name its channel id; other links do not exist.
    public func setLinks(_ links: [String: String]) throws {
        try JSONEncoder().encode(links).write(to: directory.appendingPathComponent("links.json"))
    }

    /// Puts the stand-in in `mode`.
    public func setMode(_ mode: Mode) throws {
        try Data(mode.rawValue.utf8).write(to: directory.appendingPathComponent("mode"))
    }

    /// Puts the stand-in in mode `gated` behind a new, closed gate.
    public func closedGate() throws -> Gate {
        let path = directory.appendingPathComponent("gate").path
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let descriptor = open(path, O_RDWR)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        try setMode(.gated)
        return Gate(descriptor: descriptor)
    }

    /// The argument lists of the runs so far.
    public func calls() -> [[String]] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("calls.log"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Removes the scratch directory.
    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
