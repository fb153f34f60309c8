import Foundation
import ServerTestSupport
import TestSupport

/// What a 20-second PostgreSQL outage does to `records/modify`: a real `metube-server` on a
/// throw-away cluster of its own, written to by 4 users with 4 writers each (each writer sends
/// one new record after another, and waits 100 ms after a refusal, as a client does); the cluster
/// is stopped with `pg_ctl stop -m fast` for 20 s and started again.
///
/// Figures: the requests answered (most with 503) and those left without any answer during the
/// outage, and the recovery time: from the database's return until every user had a write
/// acknowledged again.
func postgresOutageFigures() async throws -> [Figure] {
    let cluster = try PostgresScratchCluster()
    let url = try cluster.database(named: "metube_outage_bench")
    var tokens: [String: String] = [:]
    for user in ["ann", "ben", "cat", "dan"] {
        let added = try runProcess(ServerProcess.binary, ["users", "add", user, "--database", url])
        guard added.status == 0 else { throw BenchFailure("users add failed: \(added.stderr)") }
        tokens[user] = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let server = try await ServerProcess.start(["serve", "--port", "0", "--poll-interval", "0", "--log-level", "critical", "--database", url])
    defer { server.stop() }
    let load = MarkSyncWriteLoad(base: server.baseURL, tokens: tokens)
    let writers = Task { await load.run(writersPerUser: 4) }
    defer { writers.cancel() }
    try await load.waitUntilEveryUserWrote(after: .now, within: .seconds(30))

    let before = load.counts
    try cluster.stop()
    try await Task.sleep(for: .seconds(20))
    try cluster.start()
    let returned = ContinuousClock.now
    let during = load.counts
    try await load.waitUntilEveryUserWrote(after: returned, within: .seconds(120))
    let recovery = (ContinuousClock.now - returned).milliseconds
    writers.cancel()
    await writers.value

    let detail = "4 users × 4 writers of records/modify, pg_ctl stop -m fast, 20 s down"
    return [
        Figure(name: "postgres.outage-20s.answered", value: Double(during.answered - before.answered), unit: "requests",
               detail: "\(detail); \(during.refused - before.refused) of them 503 TRY_AGAIN_LATER"),
        Figure(name: "postgres.outage-20s.unanswered", value: Double(during.unanswered - before.unanswered), unit: "requests", goal: "= 0",
               detail: "\(detail); no HTTP answer at all (connection cut, or none within 20 s)"),
        Figure(name: "postgres.outage-20s.recovery", value: recovery, unit: "ms", goal: "<= 10000 ms",
               detail: "from pg_ctl start returning until each of the 4 users had a write acknowledged"),
    ]
}
