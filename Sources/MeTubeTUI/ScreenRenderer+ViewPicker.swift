import MeTubeCore

extension ScreenRenderer {
    /// The view picker: each view's key (`1`–`9`), unseen and total videos, name and query; the
    /// view in use marked.
    func drawViewPicker(into grid: inout CellGrid) {
        let cursor = model.viewCursor
        let keys = model.keyMap.keys(for: .jumpToView)
        let nameWidth = min(SavedView.maximumNameLength, max(12, grid.width / 4))
        for line in 0..<model.listHeight {
            let position = cursor.scroll + line
            guard position < model.views.count else { break }
            let row = line + 1
            let view = model.views[position]
            if position == model.viewIndex { grid.put(model.unicode ? "▸" : ">", row: row, column: 0, style: .accent) }
            if position < keys.count { field(keys[position].name, into: &grid, row: row, column: 1, width: 2, style: .dim, alignRight: true) }
            let count = position < model.viewCounts.count ? model.viewCounts[position] : ViewCount()
            field(Formatting.count(count.unseen), into: &grid, row: row, column: 4, width: 7, style: count.unseen > 0 ? .accent : .dim, alignRight: true)
            field(Formatting.count(count.total), into: &grid, row: row, column: 12, width: 7, style: .dim, alignRight: true)
            let end = field(view.name, into: &grid, row: row, column: 21, width: nameWidth)
            if let query = view.query {
                field(query.text, into: &grid, row: row, column: end + 1, width: grid.width - end - 1, style: .dim)
            }
            if position == cursor.selection { grid.invert(row: row) }
        }
    }
}
