import MeTubeCore
import MeTubeFeeds

extension SyncReport: Encodable {
    private enum CodingKeys: String, CodingKey {
        case source, run, includesVideos, channelsRegistered, newVideos, backfilledVideos, videosReceived, requests, failedChannels
        case hubWasReset, notes, cancelled, error, errorIsRetryable, seconds
        case markSync = "status", markSyncError = "statusError"
        case sourceOutage, backingOff, backingOffUntil
    }

    /// Writes the report as `metube sync --json` prints it: errors as their one-line
    /// descriptions.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(run, forKey: .run)
        try container.encode(includesVideos, forKey: .includesVideos)
        try container.encode(channelsRegistered, forKey: .channelsRegistered)
        try container.encode(newVideos, forKey: .newVideos)
        try container.encode(backfilledVideos, forKey: .backfilledVideos)
        try container.encode(videosReceived, forKey: .videosReceived)
        try container.encode(requests, forKey: .requests)
        try container.encode(failedChannels.mapValues(\.description), forKey: .failedChannels)
        try container.encode(hubWasReset, forKey: .hubWasReset)
        try container.encode(notes, forKey: .notes)
        try container.encode(cancelled, forKey: .cancelled)
        try container.encodeIfPresent(error?.description, forKey: .error)
        try container.encode(errorIsRetryable, forKey: .errorIsRetryable)
        try container.encode(seconds, forKey: .seconds)
        try container.encodeIfPresent(markSync, forKey: .markSync)
        try container.encodeIfPresent(markSyncError?.description, forKey: .markSyncError)
        try container.encodeIfPresent(sourceOutage?.message(), forKey: .sourceOutage)
        try container.encode(backingOff, forKey: .backingOff)
        try container.encodeIfPresent(backingOffUntil.map(ISO8601Timestamp.format), forKey: .backingOffUntil)
    }
}
