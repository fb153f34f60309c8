import MeTubeCore

/// Marking a whole view (`A`, `W`, after a `y/n` naming the count) and undoing marks (`U`): each
/// is one store write, shown at once as pending marks.
extension ScreenModel {
    /// Asks whether to mark every video of the view in use `status`.
    mutating func askBulkMark(_ status: WatchStatus) {
        let indices = rows.filter { library.marks[library.videos[$0].id]?.status != status }
        guard !indices.isEmpty else {
            message = FooterMessage(text: rows.isEmpty ? "this view is empty" : "every video here is \(status.rawValue) already", isError: false)
            return
        }
        let bulk = BulkMark(status: status, indices: indices, viewName: viewDescription)
        pendingBulkMark = bulk
        message = FooterMessage(text: "Mark \(Formatting.count(indices.count, "video")) of \(bulk.viewName) \(status.rawValue)? (y/n)", isError: false)
    }

    /// Takes the answer to ``askBulkMark(_:)``: `y` marks, any other key cancels.
    mutating func confirmBulkMark(_ key: Key) -> [Effect] {
        guard let bulk = pendingBulkMark else { return [] }
        pendingBulkMark = nil
        guard key == .character("y") || key == .character("Y") else {
            message = FooterMessage(text: "nothing marked", isError: false)
            return []
        }
        let videoIDs = bulk.indices.map { library.videos[$0].id }
        let label = "\(Formatting.count(videoIDs.count, "video")) of \(bulk.viewName) \(bulk.status.rawValue)"
        undoHistory.push(UndoStep(label: label, previous: videoIDs.map { ($0, library.marks[$0]?.status ?? .unwatched) }))
        markInMemory([bulk.status: videoIDs])
        message = FooterMessage(text: keyMap.message("marked \(label)", hints: [(.undo, "undoes")]), isError: false)
        return [.markBatch([bulk.status: videoIDs])]
    }

    /// `U`: gives the videos of the newest undo step back the status each had before.
    mutating func undoLastMarks() -> [Effect] {
        guard let step = undoHistory.pop() else {
            message = FooterMessage(text: "nothing to undo", isError: false)
            return []
        }
        let restoring = step.restoring
        markInMemory(restoring)
        let left = undoHistory.steps.count
        message = FooterMessage(text: "undid \(step.label)" + (left > 0 ? " (\(Formatting.count(left, "more step")) to undo)" : ""), isError: false)
        return [.markBatch(restoring)]
    }

    /// The store could not write a batch: its marks are not durable (the loop gives the screen the
    /// store's library again), and the message says why.
    mutating func batchMarkFailed(_ text: String) {
        message = FooterMessage(text: "could not write the marks: \(text)", isError: true)
    }

    /// Remembers the skipped marks `skip` rules made on the videos a sync brought in (new marks
    /// naming a rule), as one undo step.
    mutating func rememberRuleMarks(in changed: Library) {
        let made = changed.marks.values.filter { $0.rule != nil && library.marks[$0.videoID] == nil }
        guard !made.isEmpty else { return }
        undoHistory.push(UndoStep(label: "rule marks of the last sync (\(Formatting.count(made.count, "video")))",
                                  previous: made.map { ($0.videoID, .unwatched) }))
    }

    /// The view in use as a question names it: its name, and the channel when one is open.
    private var viewDescription: String {
        guard let channelID = query.channelID else { return currentView.name }
        return "\(currentView.name) in \(library.channels[channelID]?.displayName ?? channelID)"
    }

    /// Shows the batch's marks at once, as pending marks, until the store's write comes back.
    private mutating func markInMemory(_ batch: [WatchStatus: [String]]) {
        for (status, videoIDs) in batch {
            for videoID in videoIDs {
                guard let index = library.index(of: videoID) else { continue }
                let previous = library.marks[videoID]
                setMark(Mark(videoID: videoID, status: status, hlc: previous?.hlc ?? HybridTimestamp(millis: 0),
                             deviceID: previous?.deviceID ?? "", syncState: .pending, base: previous?.base), at: index)
            }
        }
        refilter(keeping: selectedVideo?.id)
    }
}
