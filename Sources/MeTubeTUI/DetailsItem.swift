import MeTubeCore

/// One entry of the details pane's list under the video's facts: a chapter of its description,
/// which `P` plays from, or a link, which `P` copies.
enum DetailsItem: Sendable, Equatable {
    case chapter(DescriptionOutline.Chapter)
    case link(String)

    /// The chapters, then the links, of `outline`.
    static func items(of outline: DescriptionOutline) -> [DetailsItem] {
        outline.chapters.map(DetailsItem.chapter) + outline.links.map(DetailsItem.link)
    }

    /// The entry as one line: `1:02:03 Verdict`, or the link. Not yet made safe for display.
    var text: String {
        switch self {
        case .chapter(let chapter): "\(DurationText.format(chapter.start)) \(chapter.title)"
        case .link(let link): link
        }
    }
}
