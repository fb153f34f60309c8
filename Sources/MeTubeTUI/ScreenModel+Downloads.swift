/// The downloads view: `D` shows the watch-later queue in the feed's place, each video with where
/// its offline copy stands (``DownloadsState/stateText(of:)``) and, for the selected one when its
/// download failed, yt-dlp's last lines; `D` again or `Esc` goes back to the feed.
extension ScreenModel {
    mutating func toggleDownloads() -> [Effect] {
        let showing = screen == .feed && showsDownloads
        showsDownloads = !showing
        showsQueue = !showing
        screen = .feed
        rebuildRows()
        return []
    }
}
