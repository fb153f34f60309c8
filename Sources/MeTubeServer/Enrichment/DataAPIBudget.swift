import Foundation
import MeTubeYouTube

/// The server's daily budget of YouTube Data API units, kept by the enrichment's storage and
/// shared by everything that calls the API (the catalog's backfills, the hub's link lookups).
struct DataAPIBudget: Sendable {
    /// Where the units spent per UTC day are kept.
    let enrichment: any EnrichmentRepository
    /// The units the server may spend per UTC day.
    let dailyUnits: Int

    /// Spends `units` of today's budget; throws ``YouTubeError/quotaExceeded(_:)`` when it is
    /// spent, ``YouTubeError/upstream(_:)`` when the budget cannot be read.
    func spend(units: Int) async throws(YouTubeError) {
        let today = Date()
        let spent: Bool
        do {
            spent = try await enrichment.spend(
                units: units, day: UTCDay.string(today), dailyUnits: dailyUnits,
                forgetBefore: UTCDay.string(today.addingTimeInterval(-30 * 86_400)))
        } catch {
            throw .upstream("the daily budget could not be read: \(error)")
        }
        guard spent else { throw .quotaExceeded("the daily budget is spent") }
    }
}
