import Foundation
import Hummingbird
import HummingbirdTesting
import MeTubeAPI
import MeTubeCore
import NIOCore
import Testing
@testable import MeTubeServer

/// A bounded, seeded fuzz of every route of the hub and the mark-sync service: random methods,
/// paths, tokens and bodies — random JSON, deep nesting, huge and odd numbers, control characters,
/// and valid requests with parts replaced by junk. No answer may be a 5xx, and each must come in
/// bounded time. `METUBE_FUZZ_REQUESTS` (default 5,000) and `METUBE_FUZZ_SEED` run it longer or
/// differently; a failure names the seed and the request.
@Suite struct ServerFuzzTests {
    @Test func noRouteAnswers5xxOrHangsOnRandomRequests() async throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["METUBE_FUZZ_REQUESTS"].flatMap(Int.init) ?? 5_000
        let seed = environment["METUBE_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x6D65_7475_6265
        let fixture = try await MarkSyncFixture()
        let repository = try SQLiteHubRepository()
        _ = try await repository.register(channelIDs: (0..<20).map(HubTestSupport.channelID))
        let router = buildRouter(hubRepository: repository, markSync: MarkSyncRoutes(service: fixture.service))
        let tokens = [fixture.alice, fixture.bob]
        try await Application(router: router).test(.router) { client in
            var generator = FuzzRequestGenerator(seed: seed, tokens: tokens)
            var worst = Duration.zero
            for index in 0..<count {
                let request = generator.next()
                let started = ContinuousClock.now
                let response = try await client.execute(uri: request.uri, method: request.method, headers: request.headers, body: request.body)
                let elapsed = ContinuousClock.now - started
                worst = max(worst, elapsed)
                let summary = "seed \(seed) request \(index): \(request.method) \(request.uri.prefix(200)) body \(request.body.map { String(buffer: $0).prefix(300) } ?? "-")"
                #expect(response.status.code < 500, "\(response.status.code) for \(summary): \(String(buffer: response.body).prefix(300))")
                #expect(elapsed < .seconds(5), "\(elapsed) for \(summary)")
            }
            #expect(worst < .seconds(5))
        }
    }
}

/// Makes the fuzz requests from a seed.
struct FuzzRequestGenerator {
    struct FuzzRequest {
        let method: HTTPRequest.Method
        let uri: String
        let headers: HTTPFields
        let body: ByteBuffer?
    }

    private var random: SplitMix64
    private let tokens: [String]
    /// JSON values still to be made for the current body, so bodies stay small (at most a few
    /// hundred KB) however the dice fall.
    private var nodesLeft = 0
    private static let markSyncOperations = ["zones/modify", "zones/list", "zones/lookup", "records/modify", "records/lookup", "changes/zone", "records/query", "users/caller", ""]
    private static let hubPaths = ["/", HubAPI.healthPath, HubAPI.registerPath, HubAPI.channelsPath, HubAPI.videoQueryPath, "/api", "/api/videos/query/", "/%00", "/api/../health"]
    private static let methods: [HTTPRequest.Method] = [.post, .post, .post, .get, .get, .put, .delete, .head, .options, .patch]
    private static let keys = [
        "channelIds", "afterSeq", "limit", "afterChannelId", "operations", "operationType", "record", "records", "recordName", "recordType",
        "recordChangeTag", "fields", "value", "type", "zoneID", "zoneName", "ownerRecordName", "zones", "zone", "syncToken", "resultsLimit",
        "desiredKeys", "desiredRecordTypes", "atomic", "status", "videoId", "hlc", "lastModified",
    ]

    init(seed: UInt64, tokens: [String]) {
        random = SplitMix64(seed: seed)
        self.tokens = tokens
    }

    mutating func next() -> FuzzRequest {
        let method = pick(Self.methods)
        var headers = HTTPFields()
        let uri: String
        if chance(0.55) {
            let version = chance(0.9) ? "1" : pick(["2", "", "x"])
            let container = chance(0.9) ? MarkSyncConfiguration.defaultContainer : pick(["", "other", String(repeating: "c", count: 300)])
            let environment = chance(0.9) ? pick(["development", "production"]) : pick(["staging", ""])
            let database = chance(0.9) ? "private" : pick(["public", "shared"])
            var query: [String] = []
            if chance(0.9) { query.append("ckAPIToken=" + (chance(0.9) ? MarkSyncConfiguration.defaultAPIToken : "wrong")) }
            let token = chance(0.85) ? pick(tokens) : pick(["", "0123", String(repeating: "f", count: 64)])
            if chance(0.7) { query.append("ckWebAuthToken=" + token) } else if chance(0.8) { headers[.authorization] = pick(["Bearer ", "bearer ", "Basic ", ""]) + token }
            uri = "/database/\(version)/\(container)/\(environment)/\(database)/\(pick(Self.markSyncOperations))" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        } else {
            uri = chance(0.95) ? pick(Self.hubPaths) : "/" + string(maxLength: 40)
        }
        return FuzzRequest(method: method, uri: uri, headers: headers, body: method == .get || method == .head ? nil : ByteBuffer(string: body()))
    }

    private mutating func body() -> String {
        nodesLeft = 2_000
        switch int(10) {
        case 0: return ""
        case 1: return String(repeating: "[", count: 20 + int(2_000)) + String(repeating: "]", count: int(3) == 0 ? 0 : 20)
        case 2: return string(maxLength: 200)
        case 3, 4: return json(depth: 0, maxDepth: 4 + int(40))
        default: return mutated()
        }
    }

    /// A valid request of some route with random parts replaced by random JSON.
    private mutating func mutated() -> String {
        let record = #"{"recordName":"v\#(int(50))","recordType":"WatchedStatus","fields":{"status":{"value":"watched"},"lastModified":{"value":1765650000000,"type":"TIMESTAMP"}}}"#
        let zone = #"{"zoneName":"WatchedStatusZone"}"#
        let templates = [
            #"{"channelIds":["\#(HubTestSupport.channelID(int(30)))","UCx"],"afterSeq":\#(int(100)),"limit":\#(int(600))}"#,
            #"{"afterChannelId":"UC","limit":\#(int(6000))}"#,
            #"{"operations":[{"operationType":"\#(pick(["create", "update", "forceReplace", "delete", "forceDelete", "replace", "boom"]))","record":\#(record)}],"zoneID":\#(zone),"atomic":\#(pick(["true", "false"]))}"#,
            #"{"operations":[{"operationType":"create","zone":{"zoneID":\#(zone)}}]}"#,
            #"{"records":[{"recordName":"v\#(int(50))"}],"zoneID":\#(zone)}"#,
            #"{"zones":[{"zoneID":\#(zone),"syncToken":"S\#(string(maxLength: 8))","resultsLimit":\#(int(500) - 10)}]}"#,
            #"{"zones":[\#(zone)]}"#,
        ]
        var text = pick(templates)
        for _ in 0..<(1 + int(3)) {
            let replacement = json(depth: 0, maxDepth: 3)
            let anchors = ["\"watched\"", "1765650000000", "\"WatchedStatusZone\"", "\"v", "true", "\"UC\"", "[{", "\"create\""]
            if let range = text.range(of: pick(anchors)) { text.replaceSubrange(range, with: replacement) }
        }
        return text
    }

    private mutating func json(depth: Int, maxDepth: Int) -> String {
        nodesLeft -= 1
        let kind = depth >= maxDepth || nodesLeft <= 0 ? int(4) : int(7)
        switch kind {
        case 0: return pick(["null", "true", "false"])
        case 1: return pick(["0", "-0", "1e308", "-1e308", "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1.5", "1e-320", "\(Int64.random(in: .min ... .max, using: &random))"])
        case 2, 3: return "\"" + escaped(string(maxLength: chance(0.002) ? 20_000 : 30)) + "\""
        case 4, 5:
            let members = (0..<int(depth == 0 && chance(0.05) ? 300 : 5)).map { _ in "\"\(pick(Self.keys))\":" + json(depth: depth + 1, maxDepth: maxDepth) }
            return "{" + members.joined(separator: ",") + "}"
        default:
            return "[" + (0..<int(depth == 0 && chance(0.05) ? 300 : 5)).map { _ in json(depth: depth + 1, maxDepth: maxDepth) }.joined(separator: ",") + "]"
        }
    }

    private mutating func string(maxLength: Int) -> String {
        let pieces = ["a", "Z", "0", "-", "_", " ", "\u{0}", "\u{1B}[2J", "\r", "\n", "\u{202E}", "東", "🎉", "\\", "\"", "%", "&", "=", "?", "/", "\u{FEFF}"]
        return (0..<int(maxLength + 1)).map { _ in pick(pieces) }.joined()
    }

    private func escaped(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self).dropFirst().dropLast().description
    }

    private mutating func int(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(random.next() % UInt64(bound)) }
    private mutating func chance(_ probability: Double) -> Bool { Double(random.next() % 1_000_000) / 1_000_000 < probability }
    private mutating func pick<T>(_ values: [T]) -> T { values[int(values.count)] }
}
