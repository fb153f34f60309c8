import MeTubeCore

extension StoreTransaction {
    /// Stages marks of every video in `videoIDs` as `status`, each as ``mark(_:as:)`` would (taking
    /// watched and skipped videos out of the queue), in linear time: a batch of 50,000 (mark --query, rules) must not scan the staged marks once
    /// per video.
    /// - Returns: the marks staged, in the order of `videoIDs`.
    @discardableResult
    public mutating func mark(_ videoIDs: [String], as status: WatchStatus) -> [Mark] {
        var staged: [String: Int] = [:]
        for (index, mark) in change.marks.enumerated() { staged[mark.videoID] = index }
        var made: [Mark] = []
        made.reserveCapacity(videoIDs.count)
        for videoID in videoIDs {
            let previous = staged[videoID].map { change.marks[$0] } ?? library.marks[videoID]
            let mark = Mark(videoID: videoID, status: status, hlc: clock.now(), deviceID: sync.deviceID,
                            syncState: .pending, base: previous?.syncState == .conflict ? previous?.theirs : previous?.base)
            staged[videoID] = change.marks.count
            change.marks.append(mark)
            made.append(mark)
        }
        if status != .unwatched {
            for videoID in videoIDs where library.queue[videoID]?.isQueued == true { takeOutOfQueue(videoID) }
        }
        return made
    }
}
