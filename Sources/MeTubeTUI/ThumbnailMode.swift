/// How the details pane draws thumbnails (`[tui] thumbnails`).
///
/// Every mode but `off` draws the picture with symbols in the terminal's own cells: the one way
/// that survives tmux, ssh, scrolling and redraws. `kitty` and `sixel` draw the same picture in
/// pixels over those cells, and clear it when it moves or the screen is repainted.
public enum ThumbnailMode: String, CaseIterable, Sendable {
    /// Chooses for the terminal at start (``resolved(environment:probe:)``).
    case auto
    /// Unicode block symbols in the cells' colours, through ncurses: works in tmux and over ssh.
    case symbols
    /// The kitty graphics protocol, over the symbols.
    case kitty
    /// Sixel graphics, over the symbols.
    case sixel
    /// No thumbnails: nothing is fetched.
    case off

    /// The mode drawn in a terminal with `environment`: `auto` asks the terminal with `probe`
    /// (kitty graphics, then sixel, else symbols); inside tmux it draws symbols without asking,
    /// since tmux's passthrough is not assumed. Other modes are as set.
    func resolved(environment: [String: String], probe: () -> TerminalProbe?) -> ThumbnailMode {
        guard self == .auto else { return self }
        if let tmux = environment["TMUX"], !tmux.isEmpty { return .symbols }
        return probe()?.mode ?? .symbols
    }
}
