import Foundation
import MeTubeYouTube

extension YouTubeDataAPI {
    /// A client for the server's `--youtube-api-key` and `--youtube-api-url`.
    init(configuration: YouTubeAPIConfiguration) {
        self.init(key: configuration.key, baseURL: configuration.baseURL)
    }
}

extension LiveStreamingState {
    /// The state `details` describe at `now`; nil when they describe nothing.
    init?(_ details: YouTubeDataAPI.VideoDetails, now: Date) {
        self.init(liveBroadcastContent: details.liveBroadcastContent, scheduledStartTime: details.scheduledStartTime,
                  actualStartTime: details.actualStartTime, actualEndTime: details.actualEndTime,
                  privacyStatus: details.privacyStatus, uploadStatus: details.uploadStatus, now: now)
    }
}
