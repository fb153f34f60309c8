import MeTubeCore
import MeTubeStore

extension Store {
    /// The library with every description read back through ``Store/description(of:)`` and held
    /// as text, so libraries read from different files compare by what they say.
    public func describedLibrary() throws -> Library {
        let library = library()
        let videos = try library.videos.map { video in
            var video = video
            if video.descriptionReference != nil { video.description = try description(of: video.id) }
            return video
        }
        return library.replacingVideos(videos)
    }
}

extension Library {
    /// The library without its videos' descriptions (text or where they lie), to compare what a
    /// first screen shows.
    public var withoutDescriptions: Library {
        replacingVideos(videos.map { video in
            var video = video
            video.description = nil
            return video
        })
    }

    /// This library with `videos` instead of its own, everything else kept.
    func replacingVideos(_ videos: [Video]) -> Library {
        var library = Library(channels: Array(channels.values), videos: videos, markTable: marks)
        for position in playbackPositions.values { library.apply(position) }
        for subscription in subscriptions.values { library.apply(subscription) }
        return library
    }
}
