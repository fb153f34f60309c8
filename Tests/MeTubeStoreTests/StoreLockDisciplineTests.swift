import Foundation
import MeTubeCore
@testable import MeTubeStore
import Synchronization
import Testing
import TestSupport

/// A compaction never makes a mark wait: it encodes and writes from a copy, holding no lock, and
/// takes the file lock only to switch the new snapshots in.
@Suite struct StoreLockDisciplineTests {
    @Test func marksMadeDuringACompactionOf50000VideosDoNotWaitForIt() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let generator = SyntheticLibrary(channelCount: 216, videoCount: 50_000, markCount: 0)
        let store = try Store.open(at: directory.url)
        try store.apply(StoreChange(videos: generator.videos(), channels: generator.channels()))

        // When marks are made one after another while another thread compacts
        let compacting = Atomic<Bool>(true)
        let started = Atomic<Bool>(false)
        let compactionFailure = Mutex<String?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let compaction = Thread {
            started.store(true, ordering: .sequentiallyConsistent)
            do { try store.compact() } catch { compactionFailure.withLock { $0 = "\(error)" } }
            compacting.store(false, ordering: .sequentiallyConsistent)
            finished.signal()
        }
        compaction.start()
        while !started.load(ordering: .sequentiallyConsistent) { sched_yield() }
        var completedDuringCompaction = 0
        var marked: [String] = []
        while compacting.load(ordering: .sequentiallyConsistent), marked.count < 40 {
            let videoID = generator.video(marked.count).id
            try store.mark(videoID, as: .watched)
            marked.append(videoID)
            if compacting.load(ordering: .sequentiallyConsistent) { completedDuringCompaction += 1 }
        }
        finished.wait()

        // Then several marks completed while the compaction was still running (with the mutex held
        // across the compaction, at most the one that got in first could), and none was lost
        #expect(compactionFailure.withLock { $0 } == nil)
        #expect(completedDuringCompaction >= 3, "\(completedDuringCompaction) of \(marked.count) marks completed during the compaction")
        let reopened = try Store.open(at: directory.url)
        #expect(reopened.library().marks.count == marked.count)
        #expect(reopened.library().videos.count == 50_000)
        #expect(!reopened.needsCompaction)
    }
}
