import MeTubeThumbnails

/// Keeps the terminal's pixel picture (kitty or sixel) in step with the screen. curses does not
/// know about it, so it is written after curses has drawn, at the details pane's picture cells,
/// and cleared when the selection moves, the pane closes or anything covers it, and when the
/// screen is repainted: kitty by deleting its image id, sixel by having curses repaint the cells.
struct PixelOverlay {
    /// The pixel picture on screen now, and where.
    struct Placement: Equatable {
        var videoID: String
        /// The screen cell of its top left corner.
        var row: Int, column: Int
        var picture: PixelPicture
    }

    /// What one frame does beside drawing the grid.
    struct Frame: Equatable {
        /// Rows curses must repaint in full (they held a sixel picture), before it draws; the
        /// last may be past the screen.
        var repaintRows: Range<Int>?
        /// Bytes to write once curses has drawn: a kitty delete, then the new picture.
        var output = ""
    }

    private(set) var shown: Placement?

    /// Where `model`'s selected video's pixel picture goes in `grid`: `nil` without one, or when
    /// something in `grid` covers its cells (a picture's cells carry its colours; text does not).
    static func placement(in model: ScreenModel, grid: CellGrid) -> Placement? {
        guard let layout = model.detailsLayout, let video = model.selectedVideo,
              let details = model.details.picture, details.videoID == video.id,
              details.columns == layout.pictureColumns, details.rows == layout.pictureRows,
              case .ready(let picture) = details.state, let pixels = picture.pixels,
              layout.top + pixels.rows <= grid.height, layout.left + pixels.columns <= grid.width else { return nil }
        for row in layout.top..<(layout.top + pixels.rows) {
            guard (layout.left..<(layout.left + pixels.columns)).allSatisfy({ grid[row, $0].colors != nil }) else { return nil }
        }
        return Placement(videoID: video.id, row: layout.top, column: layout.left, picture: pixels)
    }

    /// The frame that shows `wanted` (`nil`: none) after what is shown now; `repainted` says
    /// curses repaints the whole screen this time (a resize), which wipes a sixel picture.
    mutating func frame(showing wanted: Placement?, repainted: Bool) -> Frame {
        var frame = Frame()
        guard wanted != shown || repainted else { return frame }
        if let shown {
            if let clear = shown.picture.clearSequence {
                frame.output += clear
            } else {
                // One row more: a sixel's height is rounded up to whole sixels (6 pixels).
                frame.repaintRows = shown.row..<(shown.row + shown.picture.rows + 1)
            }
        }
        if let wanted {
            // Saves the cursor and puts it back, so curses's idea of where it is stays true.
            frame.output += "\u{1B}7\u{1B}[\(wanted.row + 1);\(wanted.column + 1)H" + wanted.picture.escape + "\u{1B}8"
        }
        shown = wanted
        return frame
    }
}
