import Foundation
import AsyncHTTPClient
import MeTubeServer
import NIOCore
import Synchronization
import TestSupport

/// Writers that each send one new record after another to `records/modify` of a real server,
/// as several users at once, remembering which records were acknowledged, when each user last
/// got an acknowledgement, and how many requests were answered (with any status) or not at all.
/// The PostgreSQL outage test and `metube-bench postgres` load the server with it. The writers
/// have an HTTP client of their own, with a connection each, so the caller's other requests (say,
/// to `/health` through `HTTPClient.shared`) do not queue behind theirs.
public final class MarkSyncWriteLoad: Sendable {
    /// The requests a window of the load saw.
    public struct Counts: Sendable {
        /// Requests answered with 503 (the database unavailable).
        public var refused = 0
        /// Requests answered with any HTTP status.
        public var answered = 0
        /// Requests that got no answer: the connection failed, or no answer within 20 s.
        public var unanswered = 0
    }

    private struct State {
        var acknowledged: [String: Set<String>] = [:]
        var lastAcknowledged: [String: ContinuousClock.Instant] = [:]
        var counts = Counts()
    }

    private let base: String
    private let tokens: [String: String]
    private let state = Mutex(State())

    /// A load on the server at `base` (`http://HOST:PORT`) by the users with `tokens` (by name).
    public init(base: String, tokens: [String: String]) {
        self.base = base
        self.tokens = tokens
    }



    /// Per user, the names of the records the server acknowledged.
    public var acknowledged: [String: Set<String>] { state.withLock { $0.acknowledged } }

    /// The requests answered, refused and unanswered so far.
    public var counts: Counts { state.withLock { $0.counts } }

    /// Runs `writersPerUser` writers per user until cancelled, through an HTTP client of their own.
    public func run(writersPerUser: Int) async {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = tokens.count * writersPerUser
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        await withTaskGroup(of: Void.self) { group in
            for (user, token) in tokens {
                for writer in 0..<writersPerUser {
                    group.addTask { await self.write(as: user, token: token, writer: writer, client: client) }
                }
            }
        }
        try? await client.shutdown()
    }

    private func write(as user: String, token: String, writer: Int, client: HTTPClient) async {
        var sequence = 0
        while !Task.isCancelled {
            sequence += 1
            let name = "\(user)-\(writer)-\(sequence)"
            let body = #"{"operations":[{"operationType":"forceReplace","record":{"recordName":"\#(name)","recordType":"Mark","fields":{"n":{"value":\#(sequence)}}}}]}"#
            let answer = try? await Self.post("records/modify", to: base, token: token, body: body, client: client)
            guard !Task.isCancelled else { return }
            let isAcknowledged = answer.map { $0.status == 200 && $0.body.contains("\"recordChangeTag\"") } ?? false
            state.withLock { state in
                if answer == nil { state.counts.unanswered += 1 } else { state.counts.answered += 1 }
                if answer?.status == 503 { state.counts.refused += 1 }
                if isAcknowledged {
                    state.acknowledged[user, default: []].insert(name)
                    state.lastAcknowledged[user] = .now
                }
            }
            // A refused writer waits as a client does before it retries.
            if !isAcknowledged { try? await Task.sleep(for: .milliseconds(100)) }
        }
    }

    /// Returns once every user had a write acknowledged after `instant`; throws after `limit`.
    public func waitUntilEveryUserWrote(after instant: ContinuousClock.Instant, within limit: Duration) async throws {
        let users = Set(tokens.keys)
        try await eventually(within: limit, every: .milliseconds(50), "not every user wrote again") { [self] in
            state.withLock { state in Set(state.lastAcknowledged.filter { $0.value > instant }.keys) } == users ? () : nil
        }
    }

    /// Returns once a write was answered 503 (the database unavailable); throws after `limit`.
    public func waitForRefusals(within limit: Duration) async throws {
        let before = counts.refused
        try await eventually(within: limit, every: .milliseconds(50), "no write was answered 503") { [self] in counts.refused > before ? () : nil }
    }

    /// The names among `names` that `user`'s default zone holds, looked up 200 at a time. A
    /// lookup answered 503 or 429 (the server still recovering, or throttling the user) is sent
    /// again, as a client does, for up to 30 s; any other answer but 200 throws, so that a
    /// refused lookup is never taken for missing records.
    public func storedNames(of user: String, among names: Set<String>) async throws -> Set<String> {
        let token = tokens[user] ?? ""
        var stored: Set<String> = []
        let all = Array(names)
        for start in stride(from: 0, to: all.count, by: 200) {
            let chunk = all[start..<min(start + 200, all.count)]
            let body = #"{"records":["# + chunk.map { #"{"recordName":"\#($0)"}"# }.joined(separator: ",") + "]}"
            let end = ContinuousClock.now + .seconds(30)
            var answer = try await Self.post("records/lookup", to: base, token: token, body: body)
            while answer.status == 503 || answer.status == 429, ContinuousClock.now < end {
                try await Task.sleep(for: .milliseconds(200))
                answer = try await Self.post("records/lookup", to: base, token: token, body: body)
            }
            guard answer.status == 200 else {
                throw MarkSyncWriteLoadFailure("records/lookup for \(user) answered \(answer.status): \(answer.body.prefix(300))")
            }
            let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            for record in object?["records"] as? [[String: Any]] ?? [] where record["recordChangeTag"] != nil {
                if let name = record["recordName"] as? String { stored.insert(name) }
            }
        }
        return stored
    }

    /// POSTs `body` to the status `operation` (e.g. `records/modify`) of the server at `base`, in
    /// the default container's development database, as the user with `token`; returns the status
    /// and the body.
    public static func post(
        _ operation: String, to base: String, token: String, body: String, client: HTTPClient = .shared
    ) async throws -> (status: UInt, body: String) {
        var request = HTTPClientRequest(url: base + "/database/1/\(MarkSyncConfiguration.defaultContainer)/development/private/\(operation)"
            + "?ckAPIToken=\(MarkSyncConfiguration.defaultAPIToken)&ckWebAuthToken=\(token)")
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(20))
        let bytes = try await response.body.collect(upTo: 4 << 20)
        return (response.status.code, String(buffer: bytes))
    }
}

/// A wait of ``MarkSyncWriteLoad`` that ran out.
public struct MarkSyncWriteLoadFailure: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
