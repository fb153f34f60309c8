import MeTubeCore
import MeTubeThumbnails

/// The details pane's state: whether it is open, how far its description is scrolled, and what
/// was loaded for the selected video (its description from the store, its picture from the
/// thumbnail cache). Loading happens outside the model; results arrive as ``DetailsEvent``s.
public struct DetailsPane: Sendable, Equatable {
    /// Whether the pane is shown (`Tab`).
    public internal(set) var isOpen = false
    /// Whether the pane has a picture (`[tui] thumbnails` is not `off`).
    public internal(set) var showsPictures = true
    /// Lines of the description scrolled past, for ``scrollVideoID``.
    public internal(set) var scroll = 0
    /// The video the scroll belongs to: another selection starts at the top.
    public internal(set) var scrollVideoID: String?
    /// The description loaded last.
    public internal(set) var description: LoadedDescription?
    /// The picture loaded last.
    public internal(set) var picture: DetailsPicture?
    /// The selected entry of the pane's chapters and links, for ``itemVideoID`` (`[`, `]`).
    public internal(set) var selectedItem = 0
    /// The video the selected entry belongs to: another selection starts at its first entry.
    public internal(set) var itemVideoID: String?
    /// Counts pictures that arrived in the cache for the selected video, so it is drawn again.
    public internal(set) var pictureGeneration = 0
}

/// A video's description as the store gave it.
public struct LoadedDescription: Sendable, Equatable {
    /// The video.
    public var videoID: String
    /// The text, `nil` when the video has none.
    public var text: String?
    /// The chapters and links read from the text, once, when it was loaded.
    public var outline: DescriptionOutline

    /// `videoID`'s description `text`, with its outline read.
    public init(videoID: String, text: String?) {
        self.videoID = videoID
        self.text = text
        outline = DescriptionOutline(text ?? "")
    }
}

/// A video's thumbnail drawn for the pane at one size, or why there is none.
public struct DetailsPicture: Sendable, Equatable {
    /// The video.
    public var videoID: String
    /// Columns of the picture's area.
    public var columns: Int
    /// Rows of the picture's area.
    public var rows: Int
    /// The picture or the placeholder's reason.
    public var state: PictureState

    /// A picture of `videoID` for an area of `columns` × `rows`.
    public init(videoID: String, columns: Int, rows: Int, state: PictureState) {
        self.videoID = videoID
        self.columns = columns
        self.rows = rows
        self.state = state
    }
}

/// Where a pane's picture stands.
public enum PictureState: Sendable, Equatable {
    /// Not drawn yet (being read, decoded or fetched).
    case waiting
    /// Drawn.
    case ready(Picture)
    /// None, for this reason (offline, not a JPEG, …): the placeholder says so.
    case unavailable(String)
}

/// What the pane's loaders report.
public enum DetailsEvent: Sendable, Equatable {
    /// `videoID`'s description, read from the store (`nil`: it has none).
    case description(videoID: String, text: String?)
    /// A picture drawn, or a reason there is none.
    case picture(DetailsPicture)
    /// A fetch into the thumbnail cache ended for `videoID`: `failure` `nil` when it now holds a
    /// good picture.
    case fetched(videoID: String, failure: String?)
}
