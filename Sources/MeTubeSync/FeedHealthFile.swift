import Foundation
import MeTubeCore

/// Where direct mode keeps its failing feeds between runs, so that a `metube sync` from cron
/// does not ask channels still backing off (or a source still down) again: `feed-health.json`
/// in metube's state directory, next to its log. Written atomically (a new file renamed over
/// the old), private to the user, at most ``maximumChannels`` channels. Read as hostile: a
/// file that is too large, unreadable, of another version, dated in the future or holding an
/// impossible entry is ignored whole, with one warning, and the run goes on without it.
public struct FeedHealthFile: Sendable {
    /// The file.
    public let url: URL

    /// The largest file read.
    public static let maximumBytes = 4 << 20
    /// The most channels written (those backing off longest first).
    public static let maximumChannels = 20_000
    /// How far ahead of now a saved time may lie: the longest backoff with its jitter and the
    /// longest Retry-After fit well within it; a later one means the file is not to be trusted.
    static let horizon: Int64 = 48 * 3600 * 1000
    /// How far ahead of now the file's own date may lie (clocks differ a little between runs).
    static let clockSkew: Int64 = 5 * 60 * 1000

    /// A state file at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The state file in metube's state directory (`$XDG_STATE_HOME/metube`, else
    /// `~/.local/state/metube`, where its log is).
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        RotatingLogFile.defaultURL(environment: environment).deletingLastPathComponent().appendingPathComponent("feed-health.json")
    }

    /// What the file holds at `now`: nil without a file; nil and a warning for a file that is
    /// ignored.
    func load(now: Date) -> (state: FeedHealthState?, warning: String?) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return (nil, nil) }
        if let size = attributes[.size] as? Int, size > Self.maximumBytes {
            return (nil, warning("it is larger than \(Self.maximumBytes / (1 << 20)) MiB"))
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return (nil, warning("it cannot be read")) }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: Self.maximumBytes + 1) ?? Data() else { return (nil, warning("it cannot be read")) }
        guard data.count <= Self.maximumBytes else { return (nil, warning("it is larger than \(Self.maximumBytes / (1 << 20)) MiB")) }
        guard let state = try? JSONDecoder().decode(FeedHealthState.self, from: data) else { return (nil, warning("it is not a feed state file")) }
        guard state.version == FeedHealthState.currentVersion else {
            return (nil, warning("it has version \(state.version), not \(FeedHealthState.currentVersion)"))
        }
        if let problem = Self.problem(in: state, now: now.millisecondsSince1970) { return (nil, warning(problem)) }
        return (state, nil)
    }

    /// Writes `state` (its channels cut to ``maximumChannels``) in place of the file, atomically;
    /// a warning when it could not.
    func save(_ state: FeedHealthState) -> String? {
        var state = state
        if state.channels.count > Self.maximumChannels {
            let longest = state.channels.sorted { ($0.value.until, $0.key) > ($1.value.until, $1.key) }.prefix(Self.maximumChannels)
            state.channels = Dictionary(uniqueKeysWithValues: longest.map { ($0.key, $0.value) })
        }
        if let owed = state.catalogOwed, owed.count > Self.maximumChannels {
            state.catalogOwed = Dictionary(uniqueKeysWithValues: owed.sorted { $0.key < $1.key }.prefix(Self.maximumChannels).map { ($0.key, $0.value) })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(state) else { return "the feed state was not saved: it cannot be encoded" }
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Self.writePrivately(data, to: temporary)
            guard rename(temporary.path, url.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            return nil
        } catch {
            unlink(temporary.path)
            return "the feed state was not saved to \(url.path): \(error.localizedDescription)"
        }
    }

    private func warning(_ reason: String) -> String {
        "ignored \(url.path): \(reason); every channel is fetched as if no run came before"
    }

    /// Writes `data` to a new file at `url` of mode 0600, flushed to disk.
    private static func writePrivately(_ data: Data, to url: URL) throws {
        unlink(url.path)
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count, fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// What makes `state` untrustworthy at `now` (milliseconds since 1970), if anything.
    private static func problem(in state: FeedHealthState, now: Int64) -> String? {
        guard state.savedAt <= now + clockSkew else { return "it is dated in the future" }
        guard state.channels.count <= maximumChannels, state.feeds.utf8.count <= 4096 else { return "it holds too much" }
        let latest = now + horizon
        for (id, channel) in state.channels {
            guard ChannelID.isValid(id), (1...64).contains(channel.failures), channel.until <= latest,
                  channel.status.map({ (100...599).contains($0) }) ?? true, channel.reason.utf8.count <= 200
            else { return "it holds an impossible entry" }
        }
        if let owed = state.catalogOwed {
            guard owed.count <= maximumChannels, owed.keys.allSatisfy(ChannelID.isValid) else { return "it holds an impossible catalog entry" }
        }
        if let outage = state.outage {
            guard outage.since <= now + clockSkew, outage.nextProbe <= latest, outage.reason.utf8.count <= 200 else {
                return "it holds an impossible outage"
            }
        }
        return nil
    }
}
