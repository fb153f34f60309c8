import Foundation

extension PushServices {
    /// The parts over the PostgreSQL `database`, shared with every other instance on it: the
    /// WebSub subscriptions with their secrets, the enrichment's lookups and its daily budget
    /// live in the database, and polling rounds lease their channels (``PostgresFeedLeases``),
    /// those whose uploads are pushed for the longer WebSub interval. One name marks this
    /// instance's leases and claims.
    init(configuration: ServerConfiguration, database: PostgresServerDatabase, repository: any HubRepository) {
        let holder = UUID().uuidString
        let claimDuration = WebSubSubscriber.longestBatch(concurrency: configuration.webSub?.concurrency ?? 1)
        self.init(
            configuration: configuration, repository: repository,
            subscriptions: PostgresWebSubRepository(database: database, holder: holder, claimDuration: claimDuration),
            enrichment: PostgresEnrichmentRepository(database: database, holder: holder),
            pollSchedule: nil,
            pollLeases: configuration.pollInterval.map { interval in
                PostgresFeedLeases(
                    database: database, pollInterval: interval, pushedPollInterval: configuration.webSub?.pushedPollInterval, holder: holder)
            })
    }
}
