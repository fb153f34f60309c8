import Foundation
import MeTubeCore
import MeTubeStore
import Synchronization

/// A ``LibrarySource`` that shows a store's newest rows at once, from its ``LibraryHead``, while the
/// whole store opens on a thread of its own; from then on it is that store.
///
/// The loop's next refresh after the open reports a change, so the screen takes the whole library
/// within one refresh interval. A mark or compaction asked for before then waits for the open (the
/// head is a read-only view). Should the open fail, every later call throws its error.
public final class LoadingStore: LibrarySource {
    private let head: LibraryHead
    private let phase = Mutex(Phase.opening(waiters: []))
    private let opened = DispatchGroup()

    private enum Phase {
        case opening(waiters: [CheckedContinuation<Store, any Error>])
        case open(Store, announced: Bool)
        case failed(any Error)
    }

    /// Shows `head` and runs `open` on a new thread.
    public init(head: LibraryHead, open: @escaping @Sendable () throws -> Store) {
        self.head = head
        opened.enter()
        Thread.detachNewThread { [self] in
            let result = Result { try open() }
            let waiters = phase.withLock { phase -> [CheckedContinuation<Store, any Error>] in
                guard case .opening(let waiters) = phase else { return [] }
                switch result {
                case .success(let store): phase = .open(store, announced: false)
                case .failure(let error): phase = .failed(error)
                }
                return waiters
            }
            opened.leave()
            for waiter in waiters { waiter.resume(with: result) }
        }
    }

    /// The store once it is open, `nil` while it opens.
    public var openedStore: Store? {
        phase.withLock { phase in
            if case .open(let store, _) = phase { return store }
            return nil
        }
    }

    /// The store, once open (waits for it without blocking a thread).
    public func store() async throws -> Store {
        try await withCheckedThrowingContinuation { continuation in
            let result: Result<Store, any Error>? = phase.withLock { phase in
                switch phase {
                case .opening(var waiters):
                    waiters.append(continuation)
                    phase = .opening(waiters: waiters)
                    return nil
                case .open(let store, _): return .success(store)
                case .failed(let error): return .failure(error)
                }
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// The store, waiting for the open to finish.
    private func waitForStore() throws -> Store {
        opened.wait()
        return try phase.withLock { phase throws -> Store in
            switch phase {
            case .open(let store, _): return store
            case .failed(let error): throw error
            case .opening: preconditionFailure("the open finished without a result")
            }
        }
    }

    public func library() -> Library { openedStore?.library() ?? head.library }

    public func mark(_ videoID: String, as status: WatchStatus) throws -> Mark {
        try waitForStore().mark(videoID, as: status)
    }

    public func mark(_ batch: [WatchStatus: [String]]) throws -> Int {
        try waitForStore().mark(batch)
    }

    public func editQueue(_ edit: QueueEdit) throws -> [QueueEntry] {
        try waitForStore().editQueue(edit)
    }

    public func setTags(_ tags: [String], of channelID: String) throws -> Bool {
        try waitForStore().setTags(tags, of: channelID)
    }

    public func follow(_ channelID: String) throws -> Bool {
        try waitForStore().follow(channelID)
    }

    /// `true` once when the open has finished (the whole library replaces the head), then the
    /// store's own answer.
    public func refresh() throws -> Bool {
        let state: (Store, Bool)? = try phase.withLock { phase throws in
            switch phase {
            case .opening: return nil
            case .failed(let error): throw error
            case .open(let store, let announced):
                phase = .open(store, announced: true)
                return (store, !announced)
            }
        }
        guard let (store, firstTime) = state else { return false }
        return try store.refresh() || firstTime
    }

    public func channelFetches() -> [String: ChannelFetchResult] {
        openedStore?.channelFetches() ?? head.sync.channelFetches
    }

    public func takeNotices() -> [String] { openedStore?.takeNotices() ?? [] }

    public var needsCompaction: Bool { openedStore?.needsCompaction ?? false }

    public func compact() throws { try waitForStore().compact() }

    /// The description from the store once open; `nil` while it opens (no key waits for it).
    public func description(of videoID: String) throws -> String? { try openedStore?.description(of: videoID) }

    public var loadingVideoCount: Int? { openedStore == nil ? head.snapshotVideoCount : nil }
}
