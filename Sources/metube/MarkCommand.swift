import ArgumentParser
import Foundation
import MeTubeCore
import MeTubeStore

/// `metube mark VIDEO STATUS`: records a decision from a script.
struct MarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Mark a video watched, skipped or unwatched.",
        discussion: """
            The mark is on disk when the command returns, and syncs with the next status sync. A running TUI shows it within a second.
            With --stdin, reads one "VIDEO STATUS" pair a line and prints each pair back once that mark is on disk.
            With --query, marks every video the query selects (e.g. `metube mark --query 'tag:news and age>30d and unwatched' skipped`) in one write; videos already so marked are left alone.
            A video id that starts with - (e.g. -hAAAAAAAAA) is read as an id, not an option; `metube mark -- -hAAAAAAAAA watched` says so explicitly.
            """
    )

    @OptionGroup var store: StoreAccess

    @Argument(help: ArgumentHelp("The video id, or a watch, youtu.be or shorts URL.", valueName: "video"))
    var video: String?

    @Argument(help: "watched, skipped or unwatched.")
    var status: WatchStatus?

    @Flag(help: "Read \"VIDEO STATUS\" lines from standard input instead of arguments.")
    var stdin = false

    @Option(help: ArgumentHelp("Mark every video this query selects; give only the status then (see Queries, saved views and rules in the README).", valueName: "query"))
    var query: String?

    @Flag(help: "Mark even when the video is not in the library (e.g. known only to another device).")
    var force = false

    @Flag(help: "Print the mark as JSON.")
    var json = false

    func validate() throws {
        if query != nil {
            guard !stdin, status == nil, let video, WatchStatus(rawValue: video) != nil else {
                throw ValidationError("with --query give only the status, e.g. `metube mark --query 'tag:news and age>30d' skipped`")
            }
            return
        }
        if stdin, video != nil || status != nil { throw ValidationError("give either --stdin or VIDEO STATUS, not both") }
        if !stdin, video == nil || status == nil { throw ValidationError("give the video and its status, e.g. `metube mark dQw4w9WgXcQ watched`") }
    }

    func run() throws {
        if let query, let status = video.flatMap(WatchStatus.init(rawValue:)) {
            return try markAll(try QueryOption.parse(query, option: "--query"), as: status)
        }
        let opened = try store.openStore()
        guard stdin else { return try mark(video!, as: status!, in: opened) }
        var lineNumber = 0
        while let line = readLine() {
            lineNumber += 1
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard !words.isEmpty else { continue }
            guard words.count == 2, let status = WatchStatus(rawValue: String(words[1])) else {
                throw fail("stdin line \(lineNumber): expected \"VIDEO STATUS\" with STATUS watched, skipped or unwatched", code: ExitStatus.badInput)
            }
            try mark(String(words[0]), as: status, in: opened)
        }
    }

    private func mark(_ video: String, as status: WatchStatus, in opened: Store) throws {
        guard let videoID = VideoID.extract(from: video) else {
            throw fail("\(DisplayText.line(video, limit: 60)) is not a YouTube video id (11 characters of A-Z a-z 0-9 _ -) or video URL", code: ExitStatus.badInput)
        }
        guard force || opened.library().video(videoID) != nil else {
            throw fail("no video \(videoID) in the library (use --force to mark it anyway)", code: ExitStatus.notFound)
        }
        let mark = try withStoreErrors { () throws(StoreError) in try opened.mark(videoID, as: status) }
        if json {
            try printJSON(MarkOutput(videoId: mark.videoID, status: mark.status, syncState: mark.syncState, deviceId: mark.deviceID, hlc: mark.hlc.description))
        } else {
            print("\(videoID) \(status.rawValue) (\(mark.syncState.rawValue))")
        }
        fflush(nil)
    }
}

extension MarkCommand {
    /// Marks every video `query` selects as `status`, in one journal line.
    private func markAll(_ query: VideoQuery, as status: WatchStatus) throws {
        let opened = try store.openStore()
        let statusesKnown = try store.statusesKnown(opened)
        let (marked, selected, stopped) = try withStoreErrors { () throws(StoreError) in
            try opened.transaction { transaction in
                var context = QueryContext(library: transaction.library, statusesKnown: statusesKnown)
                let videos = transaction.library.videos.filter { query.matches($0, in: &context) }
                let changing = videos.filter { transaction.library.marks[$0.id]?.status != status }
                transaction.mark(changing.map(\.id), as: status)
                return (changing.count, videos.count, context.stoppedRegexes)
            }
        }
        if stopped > 0 { printError(QueryOption.stoppedNote(stopped)) }
        if json {
            try printJSON(MarkQueryOutput(status: status, marked: marked, unchanged: selected - marked))
        } else {
            print("marked \(marked) video\(marked == 1 ? "" : "s") \(status.rawValue)\(selected > marked ? " (\(selected - marked) already were)" : "")")
        }
    }
}

/// `metube mark --query … --json`.
struct MarkQueryOutput: Encodable {
    var status: WatchStatus
    /// How many videos got the mark.
    var marked: Int
    /// How many the query selected that had it already.
    var unchanged: Int
}

/// `metube mark --json`.
struct MarkOutput: Encodable {
    var videoId: String
    var status: WatchStatus
    var syncState: SyncState
    var deviceId: String
    var hlc: String
}
