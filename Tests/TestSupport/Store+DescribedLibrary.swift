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
        var described = Library(channels: Array(library.channels.values), videos: videos, markTable: library.marks)
        for position in library.playbackPositions.values { described.apply(position) }
        return described
    }
}

extension Library {
    /// The library without its videos' descriptions (text or where they lie), to compare what a
    /// first screen shows.
    public var withoutDescriptions: Library {
        var library = Library(channels: Array(channels.values), videos: videos.map { video in
            var video = video
            video.description = nil
            return video
        }, markTable: marks)
        for position in playbackPositions.values { library.apply(position) }
        return library
    }
}
