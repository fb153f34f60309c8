import Foundation
import MeTubeCore
import MeTubeDownloads
import MeTubeJSON

/// Asks yt-dlp — the program configured for downloads, or the server's `--yt-dlp` — for a
/// channel's catalog, without a shell, within a deadline and bounded output.
///
/// The only options passed are ones yt-dlp 2023.03.04 lists in `--help` (``optionsUsed``); the
/// answer is read as the info-dict yt-dlp documents under "OUTPUT TEMPLATE" in its README, every
/// id validated and every title sanitized.
public struct YTDLPCatalog: Sendable {
    /// The options metube passes to yt-dlp for catalog calls (checked against the real `--help` in tests).
    public static let optionsUsed = ["--dump-single-json", "--flat-playlist", "--playlist-items", "--no-warnings", "--ignore-config", "--print", "--"]
    /// The most uploads one call asks for.
    public static let maxUploads = 500
    /// The deepest nesting of an answer read: a flat playlist nests 5.
    static let maxNesting = 16

    /// The command: a path, or a name looked up on `PATH`.
    public var command: String
    /// How long one call may take.
    public var deadline: Duration
    /// The most bytes of output one call may print.
    public var maxOutputBytes: Int

    /// A catalog run through `command`.
    public init(command: String, deadline: Duration = .seconds(60), maxOutputBytes: Int = 8 << 20) {
        self.command = command
        self.deadline = deadline
        self.maxOutputBytes = maxOutputBytes
    }

    /// The channel's last `count` uploads (1…``maxUploads``), newest first, from
    /// `yt-dlp --dump-single-json --flat-playlist --playlist-items 1:N https://www.youtube.com/channel/UC…/videos`.
    public func channelUploads(_ channelID: String, count: Int) async throws(YouTubeError) -> ChannelUploads {
        precondition(ChannelID.isValid(channelID), "not a channel id")
        let count = min(max(count, 1), Self.maxUploads)
        let answer = try await json([
            "--ignore-config", "--no-warnings", "--dump-single-json", "--flat-playlist", "--playlist-items", "1:\(count)",
            "--", "https://www.youtube.com/channel/\(channelID)/videos",
        ])
        return try Self.uploads(of: channelID, in: answer, count: count)
    }

    /// Runs yt-dlp with `arguments` and returns its standard output as one JSON value.
    public func json(_ arguments: [String]) async throws(YouTubeError) -> JSONValue {
        let output = try await output(arguments)
        guard !JSONNesting.exceedsLimit(output, maxDepth: Self.maxNesting) else {
            throw .garbage("yt-dlp printed JSON nested deeper than \(Self.maxNesting)")
        }
        do {
            return try JSONValue.parse(output)
        } catch {
            throw .garbage("yt-dlp printed something that is not JSON (\(DisplayText.line(error.message, limit: 80)))")
        }
    }

    /// Runs yt-dlp with `arguments` and returns its standard output; a nonzero exit throws with
    /// its last stderr line (an unknown option as ``YouTubeError/unsupportedVersion(_:)``).
    public func output(_ arguments: [String]) async throws(YouTubeError) -> Data {
        guard let executable = YTDLPRun.executable(command) else { throw .missingExecutable(DisplayText.line(command, limit: 200)) }
        let process = CatalogProcess(executable: executable, limits: .init(maxOutputBytes: maxOutputBytes, deadline: deadline))
        let result = try await process.run(arguments)
        guard result.status == 0 else {
            if result.lastErrorLine.contains("no such option") { throw .unsupportedVersion(result.lastErrorLine) }
            throw .failed(status: result.status, lastLine: result.lastErrorLine)
        }
        return result.stdout
    }

    /// The uploads in a flat playlist `answer` for `channelID`: entries with a valid id, at most
    /// `count`, each id once; an answer about another channel, or not a playlist, throws.
    static func uploads(of channelID: String, in answer: JSONValue, count: Int) throws(YouTubeError) -> ChannelUploads {
        guard answer["_type"]?.string == "playlist", case .array(let entries)? = answer["entries"] else {
            throw .garbage("yt-dlp's answer for \(channelID) is not a playlist with entries")
        }
        if let answered = answer["channel_id"]?.string, answered != channelID {
            throw .garbage("yt-dlp answered for another channel than \(channelID)")
        }
        var uploads = ChannelUploads(channelID: channelID, videos: [])
        var seen: Set<String> = []
        for entry in entries {
            guard uploads.videos.count < count, let id = entry["id"]?.string, VideoID.isValid(id), seen.insert(id).inserted else {
                uploads.rejected += 1
                continue
            }
            let published = entry["timestamp"]?.number.map { Date(timeIntervalSince1970: $0) } ?? entry["upload_date"]?.string.flatMap(uploadDate)
            uploads.videos.append(CatalogVideo(
                id: id, title: entry["title"]?.string, durationSeconds: CatalogVideo.duration(entry["duration"]?.number), published: published))
        }
        return uploads
    }

    /// An `upload_date` (`YYYYMMDD`, UTC) as a date.
    static func uploadDate(_ text: String) -> Date? {
        guard text.utf8.count == 8, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        var components = DateComponents()
        components.calendar = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(identifier: "UTC")
        components.year = Int(text.prefix(4))
        components.month = Int(text.dropFirst(4).prefix(2))
        components.day = Int(text.suffix(2))
        return components.isValidDate ? components.date : nil
    }
}
