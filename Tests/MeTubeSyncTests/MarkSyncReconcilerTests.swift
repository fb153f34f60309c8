import MeTubeAPI
import MeTubeCore
import MeTubeSync
import Testing

@Suite("Status conflict rules")
struct MarkSyncReconcilerTests {
    private let base = ServerVersion(changeTag: "t1", status: .unwatched, hlc: HybridTimestamp(millis: 100), deviceID: "b")

    private func mark(_ status: WatchStatus, millis: Int64, state: SyncState = .pending, base: ServerVersion? = nil) -> Mark {
        Mark(videoID: "v", status: status, hlc: HybridTimestamp(millis: millis), deviceID: "a", syncState: state, base: base)
    }

    private func conflict(_ server: ServerVersion) -> MarkSyncRecordResult {
        let record = WatchedRecord(videoID: "v", status: server.status.rawValue, lastModified: server.hlc?.millis ?? 0,
                                         hlc: server.hlc?.description, deviceID: server.deviceID).record(changeTag: server.changeTag)
        return .failure(MarkSyncRecordError(recordName: "v", .conflict, "stale", serverRecord: record))
    }

    @Test("an acknowledged push is synced unless the mark changed while it was in flight")
    func acknowledged() {
        // Given a pushed mark and the server's acknowledgement at tag t2
        let pushed = mark(.watched, millis: 200, base: base)
        let record = WatchedRecord(videoID: "v", status: "watched", lastModified: 200, hlc: "200-0", deviceID: "a").record(changeTag: "t2")
        let reconciler = MarkReconciler()
        // When the mark is unchanged, and when it was re-marked meanwhile
        let same = reconciler.afterPush(pushed: pushed, current: pushed, result: .success(record))
        let remarked = reconciler.afterPush(pushed: pushed, current: mark(.skipped, millis: 300, base: base), result: .success(record))
        // Then the first is synced at t2, the second stays pending but will push on t2
        #expect(same?.syncState == .synced && same?.base?.changeTag == "t2")
        #expect(remarked?.syncState == .pending && remarked?.status == .skipped && remarked?.base?.changeTag == "t2")
    }

    @Test("a conflict with the same value is synced; a different value follows the policy")
    func conflicts() {
        // Given a local mark and two competing server versions
        let local = mark(.watched, millis: 200, base: base)
        let same = ServerVersion(changeTag: "t2", status: .watched, hlc: HybridTimestamp(millis: 150), deviceID: "b")
        let older = ServerVersion(changeTag: "t2", status: .skipped, hlc: HybridTimestamp(millis: 150), deviceID: "b")
        let newer = ServerVersion(changeTag: "t2", status: .skipped, hlc: HybridTimestamp(millis: 250), deviceID: "b")
        func push(_ policy: ConflictPolicy, _ server: ServerVersion) -> Mark? {
            MarkReconciler(policy: policy).afterPush(pushed: local, current: local, result: conflict(server))
        }
        // When the server answers CONFLICT under each policy, Then:
        #expect(push(.ask, same)?.syncState == .synced)
        #expect(push(.ask, older)?.syncState == .conflict && push(.ask, older)?.theirs == older)
        #expect(push(.newest, older)?.syncState == .pending && push(.newest, older)?.base == older)
        #expect(push(.newest, newer)?.syncState == .synced && push(.newest, newer)?.status == .skipped)
        #expect(push(.server, older)?.status == .skipped)
        #expect(push(.local, newer)?.status == .watched && push(.local, newer)?.syncState == .pending)
    }

    @Test("a pull never silently overwrites a pending mark; synced marks follow the server")
    func pulls() {
        // Given a pending and a synced mark, and a server version from another device
        let server = ServerVersion(changeTag: "t2", status: .skipped, hlc: HybridTimestamp(millis: 150), deviceID: "b")
        let reconciler = MarkReconciler()
        // When the server version is pulled
        let pending = reconciler.afterPull(local: mark(.watched, millis: 200, base: base), server: server, videoID: "v")
        let synced = reconciler.afterPull(local: mark(.watched, millis: 200, state: .synced, base: base), server: server, videoID: "v")
        let fresh = reconciler.afterPull(local: nil, server: server, videoID: "v")
        let known = reconciler.afterPull(local: mark(.unwatched, millis: 100, state: .synced, base: base), server: base, videoID: "v")
        // Then the pending one becomes a visible conflict, the others take the server's value, a known version changes nothing
        #expect(pending?.syncState == .conflict && pending?.status == .watched && pending?.theirs == server)
        #expect(synced?.syncState == .synced && synced?.status == .skipped)
        #expect(fresh?.status == .skipped && fresh?.syncState == .synced)
        #expect(known == nil)
    }

    @Test("the push carries the change tag of the version it replaces")
    func operations() {
        // Given a new mark, a mark with a base, and a conflicted mark
        var conflicted = mark(.watched, millis: 200, state: .conflict, base: base)
        conflicted.theirs = ServerVersion(changeTag: "t9", status: .skipped)
        // When their operations are built, Then they are create, update on t1, update on t9
        #expect(MarkReconciler.operation(for: mark(.watched, millis: 1)).operationType == .create)
        #expect(MarkReconciler.operation(for: mark(.watched, millis: 1, base: base)).record.recordChangeTag == "t1")
        #expect(MarkReconciler.operation(for: conflicted).record.recordChangeTag == "t9")
    }
}
