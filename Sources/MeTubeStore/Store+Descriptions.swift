import MeTubeCore

extension Store {
    /// The description of `videoID` as its source gave it, read on demand: the list, the first
    /// frame and search never hold descriptions; a details view asks for one video's at a time.
    /// `nil` when the video is unknown or has no description.
    public func description(of videoID: String) throws(StoreError) -> String? {
        library().video(videoID)?.description
    }
}
