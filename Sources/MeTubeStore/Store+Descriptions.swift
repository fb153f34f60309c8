import MeTubeCore

extension Store {
    /// The description of `videoID` as its source gave it, read on demand from the store file it
    /// lies in: the list, the first frame and search never hold descriptions; a details view asks
    /// for one video's at a time. `nil` when the video is unknown or has no description.
    public func description(of videoID: String) throws(StoreError) -> String? {
        let (video, files) = state.withLock { ($0.library.video(videoID), $0.descriptionFiles) }
        guard let video else { return nil }
        if let text = video.description { return text }
        guard let reference = video.descriptionReference else { return nil }
        return try DescriptionLiterals(files: files).text(reference)
    }
}
