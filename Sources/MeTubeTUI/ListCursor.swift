/// A selection in a scrolling list: which row is selected and which row is at the top.
public struct ListCursor: Sendable, Equatable {
    /// The selected row.
    public private(set) var selection = 0
    /// The first row on screen.
    public private(set) var scroll = 0

    /// A cursor at the top of a list.
    public init() {}

    /// Selects row `index` of `count`, scrolling as little as possible to keep it among `visible` rows.
    public mutating func select(_ index: Int, count: Int, visible: Int) {
        selection = max(0, min(index, count - 1))
        clamp(count: count, visible: visible)
    }

    /// Moves the selection by `delta` rows.
    public mutating func move(by delta: Int, count: Int, visible: Int) {
        select(selection + delta, count: count, visible: visible)
    }

    /// Selects row `index` and puts it `offset` rows below the top of the screen, where possible:
    /// how a list keeps still while rows are added above the selection.
    public mutating func select(_ index: Int, atOffset offset: Int, count: Int, visible: Int) {
        selection = max(0, min(index, count - 1))
        scroll = selection - offset
        clamp(count: count, visible: visible)
    }

    /// Brings the cursor back inside a list of `count` rows of which `visible` fit on screen.
    public mutating func clamp(count: Int, visible: Int) {
        let visible = max(visible, 1)
        selection = max(0, min(selection, count - 1))
        if selection < scroll { scroll = selection }
        if selection >= scroll + visible { scroll = selection - visible + 1 }
        scroll = max(0, min(scroll, count - visible))
    }

    /// Moves for a navigation action (down, up, a page either way, first, last) in a list of
    /// `count` rows of which `visible` fit on screen; other actions leave it alone.
    public mutating func navigate(_ action: Action, count: Int, visible: Int) {
        switch action {
        case .moveDown: move(by: 1, count: count, visible: visible)
        case .moveUp: move(by: -1, count: count, visible: visible)
        case .pageDown: move(by: visible, count: count, visible: visible)
        case .pageUp: move(by: -visible, count: count, visible: visible)
        case .moveFirst: select(0, count: count, visible: visible)
        case .moveLast: select(count - 1, count: count, visible: visible)
        default: break
        }
    }
}
