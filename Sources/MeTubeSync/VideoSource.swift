/// Where a store's videos come from: a MeTube hub, or each channel's feed fetched directly.
/// The ``SyncEngine`` runs one at a time and judges its health from what `sync` and `probe`
/// answer.
public protocol VideoSource: Sendable {
    /// Which kind of source this is, for reports and the status line.
    var kind: SyncSource { get }

    /// Fetches what is new for the store's channels into the store, telling `progress` about
    /// each step. Throws `SyncError.cancelled` when cancelled before anything could be reported;
    /// per-channel failures are reported in ``SyncReport/failedChannels`` instead of thrown.
    func sync(progress: @escaping @Sendable (String) -> Void) async throws(SyncError) -> SyncReport

    /// Like ``sync(progress:)``, spreading the run's requests per `pace` (at once when nil).
    func sync(pace: SyncPace?, progress: @escaping @Sendable (String) -> Void) async throws(SyncError) -> SyncReport

    /// Asks the source once whether it answers (no retries); throws when it cannot be reached.
    func probe() async throws(SyncError)
}

extension VideoSource {
    /// A source with nothing to spread syncs at its own pace.
    public func sync(pace: SyncPace?, progress: @escaping @Sendable (String) -> Void) async throws(SyncError) -> SyncReport {
        try await sync(progress: progress)
    }
}
