import MeTubeThumbnails

/// Where the details pane goes at a terminal size: on the right when the terminal is at least
/// 120 columns wide (the list keeps at least 60), in the lower half of the list's rows otherwise.
public struct DetailsLayout: Sendable, Equatable {
    /// Whether the pane is beside the list (else below it).
    public var isBeside: Bool
    /// Columns the list keeps.
    public var listWidth: Int
    /// The pane's first row and column.
    public var top: Int, left: Int
    /// The pane's size.
    public var width: Int, height: Int
    /// The picture's area inside the pane, at its top left.
    public var pictureColumns: Int, pictureRows: Int

    /// The narrowest terminal the pane goes beside the list.
    public static let besideFrom = 120
    /// The columns the list keeps beside the pane.
    public static let listMinimum = 60

    /// The layout at `size` (at least ``TerminalSize/minimum``), with a picture area when
    /// `pictures` is true.
    public static func of(_ size: TerminalSize, pictures: Bool) -> DetailsLayout {
        let listRows = max(size.height - 3, 1)
        if size.width >= besideFrom {
            let width = min(size.width - listMinimum - 1, max(listMinimum, size.width * 2 / 5))
            let picture = pictures ? SymbolRenderer.size(forColumns: width - 1, maxRows: max(listRows / 2, 1)) : (columns: 0, rows: 0)
            return DetailsLayout(
                isBeside: true, listWidth: size.width - width - 1, top: 1, left: size.width - width, width: width, height: listRows,
                pictureColumns: picture.columns, pictureRows: picture.rows)
        }
        let height = max(listRows / 2, 1)
        let picture = pictures ? SymbolRenderer.size(forColumns: min(40, size.width / 3), maxRows: max(height - 1, 1)) : (columns: 0, rows: 0)
        return DetailsLayout(
            isBeside: false, listWidth: size.width, top: size.height - 2 - height, left: 0, width: size.width, height: height,
            pictureColumns: picture.columns, pictureRows: picture.rows)
    }

    /// Rows the pane takes from the list (below it, with a separator line).
    public var listRowsTaken: Int { isBeside ? 0 : height + 1 }
}
