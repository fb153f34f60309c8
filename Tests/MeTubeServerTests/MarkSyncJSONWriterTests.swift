import Foundation
import MeTubeAPI
import MeTubeCore
import NIOCore
import Testing
@testable import MeTubeServer

/// `MarkSyncJSONWriter` against `JSONEncoder`, the path it replaces, on generated and hostile answers.
@Suite struct MarkSyncJSONWriterTests {
    static let hostileStrings = [
        "", "watched", "He said \"hi\" \\ back\nnew\ttab\r\u{08}\u{0C}\u{01}\u{1F}\u{7F}", "a/b </script>", "東京 🌃 \u{2028}\u{2029}",
        "\u{0}", "\\u0041", "null", "-12", "e\u{301}", "\u{FEFF}bom", "🏳️‍🌈", String(repeating: "x", count: 300), "{\"k\":1}",
    ]

    static func string(_ random: inout SplitMix64) -> String {
        if Bool.random(using: &random) { return hostileStrings.randomElement(using: &random)! }
        let scalars = (0..<Int.random(in: 0...12, using: &random)).map { _ -> Character in
            let pick = Int.random(in: 0..<4, using: &random)
            let value: UInt32 = switch pick {
            case 0: UInt32.random(in: 0...0x7F, using: &random)
            case 1: UInt32.random(in: 0x80...0x7FF, using: &random)
            case 2: UInt32.random(in: 0xE000...0xFFFD, using: &random)
            default: UInt32.random(in: 0x1_0000...0x10_FFFF, using: &random)
            }
            return Character(Unicode.Scalar(value)!)
        }
        return String(scalars)
    }

    static func value(_ random: inout SplitMix64, depth: Int = 0) -> MarkSyncValue {
        let edges: [Int64] = [0, -1, 1, .max, .min, .max - 1, .min + 1, 9_007_199_254_740_993]
        let doubles: [Double] = [0, -0.0, 12.5, 5, 1e300, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1, -123.456]
        switch Int.random(in: 0..<(depth < 2 ? 7 : 5), using: &random) {
        case 0: return .string(string(&random))
        case 1: return .integer(Bool.random(using: &random) ? edges.randomElement(using: &random)! : Int64.random(in: .min ... .max, using: &random))
        case 2: return .double(Bool.random(using: &random) ? doubles.randomElement(using: &random)! : Double.random(in: -1e9...1e9, using: &random))
        case 3: return .bool(Bool.random(using: &random))
        case 4: return .null
        case 5: return .list((0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) })
        default: return .object(Dictionary((0..<Int.random(in: 0...3, using: &random)).map { _ in (string(&random), value(&random, depth: depth + 1)) }) { first, _ in first })
        }
    }

    static func record(_ random: inout SplitMix64) -> MarkSyncRecord {
        func maybe<T>(_ make: (inout SplitMix64) -> T) -> T? { Bool.random(using: &random) ? make(&random) : nil }
        let types = ["STRING", "INT64", "TIMESTAMP", "DOUBLE", "LIST", "REFERENCE", "unknown \"type\""]
        let fields: [String: MarkSyncField]? = maybe { random in
            Dictionary((0..<Int.random(in: 0...4, using: &random)).map { _ in
                (string(&random), MarkSyncField(value: value(&random), type: Bool.random(using: &random) ? types.randomElement(using: &random) : nil))
            }) { first, _ in first }
        }
        let stamp: (inout SplitMix64) -> MarkSyncRecordStamp = { random in
            MarkSyncRecordStamp(timestamp: Int64.random(in: .min ... .max, using: &random),
                              userRecordName: Bool.random(using: &random) ? string(&random) : nil,
                              deviceID: Bool.random(using: &random) ? string(&random) : nil)
        }
        return MarkSyncRecord(
            recordName: maybe(string), recordType: maybe(string), recordChangeTag: maybe(string), fields: fields,
            created: maybe(stamp), modified: maybe(stamp), deleted: maybe { Bool.random(using: &$0) })
    }

    static func recordsResponse(seed: UInt64) -> MarkSyncRecordsResponse {
        var random = SplitMix64(seed: seed)
        return MarkSyncRecordsResponse(records: (0..<Int.random(in: 0...20, using: &random)).map { _ in
            if Int.random(in: 0..<5, using: &random) == 0 {
                return .failure(MarkSyncRecordError(
                    recordName: string(&random), MarkSyncErrorCode.allCases.randomElement(using: &random)!, string(&random),
                    retryAfter: Bool.random(using: &random) ? 2.5 : nil, serverRecord: Bool.random(using: &random) ? record(&random) : nil))
            }
            return .success(record(&random))
        })
    }

    static func zoneChangesResponse(seed: UInt64) -> MarkSyncZoneChangesResponse {
        var random = SplitMix64(seed: seed)
        return MarkSyncZoneChangesResponse(zones: (0..<Int.random(in: 0...3, using: &random)).map { _ in
            let zoneID = MarkSyncZoneID(zoneName: string(&random), ownerRecordName: Bool.random(using: &random) ? string(&random) : nil)
            if Int.random(in: 0..<4, using: &random) == 0 {
                return .failure(MarkSyncZoneError(zoneID: zoneID, .zoneNotFound, string(&random)))
            }
            return .success(MarkSyncZoneChanges(
                zoneID: zoneID, records: (0..<Int.random(in: 0...10, using: &random)).map { _ in record(&random) },
                syncToken: string(&random), moreComing: Bool.random(using: &random)))
        })
    }

    /// The JSON with every object's keys sorted: equal for two texts that mean the same.
    static func canonical(_ data: Data) throws -> Data {
        try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed), options: [.sortedKeys, .fragmentsAllowed])
    }


    static func data(_ buffer: ByteBuffer) -> Data { Data(buffer.readableBytesView) }

    @Test(arguments: 0..<300)
    func recordsAnswerMeansWhatJSONEncoderWrites(seed: UInt64) throws {
        // Given a generated records/modify answer, when both paths write it
        let response = Self.recordsResponse(seed: seed)
        let written = Self.data(try MarkSyncJSONWriter.records(response))
        let foundation = try JSONEncoder().encode(response)

        // Then the texts mean the same, and decode to the answer
        #expect(try Self.canonical(written) == Self.canonical(foundation))
        #expect(try JSONDecoder().decode(MarkSyncRecordsResponse.self, from: written) == JSONDecoder().decode(MarkSyncRecordsResponse.self, from: foundation))
    }

    @Test(arguments: 0..<300)
    func zoneChangesAnswerMeansWhatJSONEncoderWrites(seed: UInt64) throws {
        // Given a generated changes/zone answer, when both paths write it
        let response = Self.zoneChangesResponse(seed: seed)
        let written = Self.data(try MarkSyncJSONWriter.zoneChanges(response))
        let foundation = try JSONEncoder().encode(response)

        // Then the texts mean the same, and decode to the answer
        #expect(try Self.canonical(written) == Self.canonical(foundation))
        #expect(try JSONDecoder().decode(MarkSyncZoneChangesResponse.self, from: written) == JSONDecoder().decode(MarkSyncZoneChangesResponse.self, from: foundation))
    }

    @Test(arguments: hostileStrings)
    func stringsAreEscapedByteForByteAsJSONEncoderEscapesThem(text: String) throws {
        // Given a hostile string, when the writer writes it, then the bytes are JSONEncoder's
        // (JSONEncoder orders an object's keys by hash, so only values can be compared byte for byte)
        var buffer = ByteBuffer()
        buffer.writeJSONString(text, escapingSlashes: true)
        #expect(Self.data(buffer) == (try JSONEncoder().encode(text)))
    }

    @Test(arguments: hostileStrings)
    func hostileRecordsMeanWhatJSONEncoderWrites(text: String) throws {
        // Given answers made of a hostile string everywhere, at the integer edges
        let record = MarkSyncRecord(
            recordName: text, recordType: "WatchedStatus", recordChangeTag: text, fields: [text: .string(text), "n": .int64(.min), "d": .double(12.5)],
            created: MarkSyncRecordStamp(timestamp: .min, userRecordName: text, deviceID: text), modified: MarkSyncRecordStamp(timestamp: .max), deleted: false)
        let records = MarkSyncRecordsResponse(records: [.success(record), .success(MarkSyncRecord(recordName: text))])
        let changes = MarkSyncZoneChangesResponse(zones: [
            .success(MarkSyncZoneChanges(zoneID: MarkSyncZoneID(zoneName: text, ownerRecordName: text), records: [record], syncToken: text, moreComing: true)),
        ])

        // Then both writers write text that means the same
        #expect(try Self.canonical(Self.data(MarkSyncJSONWriter.records(records))) == Self.canonical(JSONEncoder().encode(records)))
        #expect(try Self.canonical(Self.data(MarkSyncJSONWriter.zoneChanges(changes))) == Self.canonical(JSONEncoder().encode(changes)))
    }

    @Test func aNonFiniteDoubleFailsTheAnswerAsJSONEncoderDoes() {
        // Given a record holding infinity, when it is written, then the writer throws as JSONEncoder does
        let response = MarkSyncRecordsResponse(records: [.success(MarkSyncRecord(recordName: "a", fields: ["x": .double(.infinity)]))])
        #expect(throws: (any Error).self) { try MarkSyncJSONWriter.records(response) }
        #expect(throws: (any Error).self) { try JSONEncoder().encode(response) }
    }
}
