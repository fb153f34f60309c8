import Foundation
import MeTubeCore
import MeTubeDownloads
@testable import MeTubeTUI
import TestSupport
import Testing

/// The downloads view (`D`) and a failed download in the details pane, from the model's reports
/// of the background downloads.
@Suite("Downloads view")
struct DownloadsViewTests {
    let id = SyntheticLibrary.videoID

    /// The fixture with rows 1 to 4 of the feed queued, and a report for each: a copy on disk, a
    /// download at 42%, one waiting for room, and one failed with yt-dlp's lines (a hostile one
    /// among them).
    private func modelWithDownloads() -> ScreenModel {
        var model = Fixture.model()
        model.press(.character("l"), .character("j"), .character("l"), .character("j"), .character("l"), .character("j"), .character("l"))
        let failure = DownloadFailure(kind: .unavailable, status: 1, lines: [
            "[generic] Extracting URL", "ERROR: [youtube] \(id(5)): Video unavailable", "\u{1b}]52;c;aGk=\u{07}stolen",
        ])
        for event: DownloadEvent in [
            .copies([id(0): 12_300_000]),
            .state(videoID: id(1), .downloading(DownloadProgress(downloadedBytes: 42, totalBytes: 100))),
            .state(videoID: id(3), .waiting(reason: "needs 1.2 GB, 300 MB left")),
            .state(videoID: id(5), .failed(failure, attempts: 1)),
        ] { _ = model.apply(.download(event)) }
        return model
    }

    @Test("D shows the queue with each video's download; D or Esc goes back to the feed; L switches to the plain queue")
    func toggles() {
        var model = modelWithDownloads()
        #expect(model.press(.character("D")).isEmpty)
        #expect(model.showsDownloads && model.showsQueue)
        #expect(Fixture.rowIDs(model) == [id(0), id(1), id(3), id(5)])
        #expect(model.downloads.stateText(of: id(0)).hasPrefix("downloaded 12"))
        #expect(model.downloads.stateText(of: id(1)) == "downloading 42% of 100 bytes")
        #expect(model.downloads.stateText(of: id(3)) == "waits: needs 1.2 GB, 300 MB left")
        #expect(model.downloads.stateText(of: id(5)) == "failed: the video is unavailable")
        model.press(.character("D"))
        #expect(!model.showsDownloads && !model.showsQueue)
        model.press(.character("D"), .escape)
        #expect(!model.showsDownloads && !model.showsQueue)
        model.press(.character("D"), .character("L"))
        #expect(!model.showsDownloads && model.showsQueue)
        model.press(.character("c"), .character("D"))
        #expect(model.screen == .feed && model.showsDownloads)
    }

    @Test("a finished download keeps the size of its last report; a new report replaces a failure")
    func reports() {
        var model = modelWithDownloads()
        _ = model.apply(.download(.state(videoID: id(1), .downloaded)))
        #expect(model.downloads.copies[id(1)] == 100)
        #expect(model.downloads.active.isEmpty)
        _ = model.apply(.download(.state(videoID: id(5), .downloading(nil))))
        #expect(model.downloads.errorLines(of: id(5)).isEmpty)
        #expect(model.downloads.stateText(of: id(5)) == "downloading …")
    }

    @Test("the downloads view: copy, percent, waiting and why, failed and its class, the selected failure's last lines made safe")
    func golden() {
        var model = modelWithDownloads()
        model.press(.character("D"), .character("G"))
        let text = ScreenRenderer.render(model).text
        #expect(text == DownloadsViewTests.screen, "screen was:\n\(text)")
    }

    @Test("the details pane of a video whose download failed shows the class and yt-dlp's last lines")
    func detailsPane() {
        var model = modelWithDownloads()
        _ = model.apply(.resized(TerminalSize(width: 160, height: 40)))
        model.press(.character("G"), .tab)
        let text = ScreenRenderer.render(model).text
        #expect(text.contains("download failed: the video is unavailable"), "\(text)")
        #expect(text.contains("Video unavailable") && !text.contains("\u{1b}"), "\(text)")
        model.press(.character("g"))
        #expect(!ScreenRenderer.render(model).text.contains("download failed"))
    }

    static let screen = """
         metube · downloads (4 videos)
        ⤓ PS6 hardware deep dive: what the…                   downloaded 12.3 MB
          東京の夜景を歩く 🌃 4K散歩                downloading 42% of 100 bytes
          Short: frame pacing                   waits: needs 1.2 GB, 300 MB left
          Sourdough and a Moog                  failed: the video is unavailable

        yt-dlp's last lines:
        [generic] Extracting URL
        ERROR: [youtube] FAAAAAAAAAA: Video unavailable
        ]52;c;aGk=stolen
         4 of 7 │ ↻ 1 pending │ ⚠ 1 conflict │ ⤓ 1 downloading 42% │ hub: not c…
        ? help
        """
}
