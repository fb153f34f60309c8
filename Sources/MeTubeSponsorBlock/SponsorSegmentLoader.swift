import Foundation
import MeTubeCore
import MeTubeStore

/// Gives a playing video its sponsor segments: at once those kept in the store (so skipping
/// works offline), then, when none are kept for the categories in force or they are older than
/// ``maxAge``, those SponsorBlock answers, which are kept for next time.
public struct SponsorSegmentLoader: Sendable {
    /// How long kept segments are used before SponsorBlock is asked again.
    public static let maxAge: TimeInterval = 86_400

    /// The `[sponsorblock]` settings.
    public let settings: SponsorBlockSettings
    private let store: Store
    private let client: SponsorBlockClient

    /// A loader into `store`, or `nil` when `[sponsorblock] enabled` is false.
    public init?(settings: SponsorBlockSettings, store: Store, client: SponsorBlockClient? = nil) {
        guard settings.enabled else { return nil }
        self.settings = settings
        self.store = store
        self.client = client ?? SponsorBlockClient(api: settings.api)
    }

    /// Hands `video`'s kept segments to `use` now, and fetches newer ones in the background when
    /// due, keeping them and then handing them over too; `failed` hears why a fetch or its keeping
    /// failed (the kept segments, if any, stay in use).
    public func load(
        _ video: Video, into use: @escaping @Sendable ([SponsorSegment]) -> Void, failed: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        let kept = try? store.sponsorSegments(of: video.id)
        if let kept { use(kept.segments) }
        guard !(kept?.isCurrent(for: settings.categories, maxAge: Self.maxAge) ?? false) else { return }
        Task { [store, client, settings] in
            let segments: [SponsorSegment]
            do throws(SponsorBlockError) {
                segments = try await client.segments(of: video.id, categories: settings.categories, duration: video.duration.map(Double.init))
            } catch {
                return failed("no sponsor segments from SponsorBlock: \(error)")
            }
            // Kept before they are handed over, so what is in use is on disk for the next play.
            do throws(StoreError) {
                try store.saveSponsorSegments(SponsorSegmentRecord(videoID: video.id, fetchedAt: Date(), categories: settings.categories, segments: segments))
            } catch {
                failed("sponsor segments not kept: \(error)")
            }
            use(segments)
        }
    }
}
