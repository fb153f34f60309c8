import Foundation
import MeTubeAPI
import MeTubeCore
import Testing
@testable import MeTubeServer

/// `MarkSyncModifyBodyDecoder` against `JSONDecoder`: whatever it accepts, `JSONDecoder` reads the same.
@Suite struct MarkSyncModifyBodyDecoderTests {
    /// Generated bodies: records of scalar fields (which it reads) and of lists, objects, doubles (which it declines).
    static func body(seed: UInt64) throws -> Data {
        var random = SplitMix64(seed: seed)
        let operations = (0..<Int.random(in: 0...30, using: &random)).map { _ in
            var record = MarkSyncJSONWriterTests.record(&random)
            record.created = nil
            record.modified = nil
            if Int.random(in: 0..<3, using: &random) > 0 {
                record.fields = record.fields?.filter { _, field in
                    switch field.value {
                    case .list, .object, .double: false
                    default: true
                    }
                }
            }
            return MarkSyncRecordsModifyRequest.Operation(
                MarkSyncRecordsModifyRequest.Operation.OperationType.allCases.randomElement(using: &random)!, record: record)
        }
        let zoneID = Bool.random(using: &random) ? MarkSyncZoneID(zoneName: MarkSyncJSONWriterTests.string(&random)) : nil
        return try JSONEncoder().encode(MarkSyncRecordsModifyRequest(operations: operations, zoneID: zoneID, atomic: Bool.random(using: &random) ? false : nil))
    }

    static func agree(_ data: Data) {
        guard let fast = Array(data).withUnsafeBufferPointer(MarkSyncModifyBodyDecoder.decode) else { return }
        #expect((try? JSONDecoder().decode(MarkSyncRecordsModifyRequest.self, from: data)) == fast, "\(String(decoding: data, as: UTF8.self))")
    }

    @Test(arguments: 0..<400)
    func whatItAcceptsJSONDecoderReadsTheSame(seed: UInt64) throws {
        // Given a generated body, and every prefix-cut and byte-flipped copy of it
        let data = try Self.body(seed: seed)
        Self.agree(data)
        var random = SplitMix64(seed: seed ^ 0xABCD)
        for _ in 0..<20 where !data.isEmpty {
            var mutated = Array(data)
            let position = Int.random(in: 0..<mutated.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: mutated[position] = UInt8.random(in: 0...255, using: &random)
            case 1: mutated.remove(at: position)
            default: mutated.insert(Array("\"\\{}[],:0-.eE tfn\u{01}".utf8).randomElement(using: &random)!, at: position)
            }
            // Then whatever it accepts, JSONDecoder reads the same
            Self.agree(Data(mutated))
        }
    }

    @Test func itReadsManyGeneratedBodies() throws {
        // Given 400 generated bodies, two in three without lists, objects or doubles
        let accepted = try (0..<400).filter { Array(try Self.body(seed: UInt64($0))).withUnsafeBufferPointer(MarkSyncModifyBodyDecoder.decode) != nil }.count

        // Then it reads many of them itself (so the comparisons above compare something)
        #expect(accepted >= 100, "accepted \(accepted) of 400")
    }

    @Test func itReadsTheBenchBodyShape() throws {
        // Given a body of 200 forceReplace watched-status records (what clients send), then it reads it
        let operations = (0..<200).map { index in
            MarkSyncRecordsModifyRequest.Operation(.forceReplace, record: MarkSyncRecord(
                recordName: "video-\(index)", recordType: "WatchedStatus",
                fields: ["status": .string("watched"), "lastModified": .timestamp(1_765_650_000_000 + Int64(index)), "hlc": .string("1765650000000-\(index)")]))
        }
        let data = try JSONEncoder().encode(MarkSyncRecordsModifyRequest(operations: operations, zoneID: MarkSyncZoneID(zoneName: "metube"), atomic: false))
        let fast = try #require(Array(data).withUnsafeBufferPointer(MarkSyncModifyBodyDecoder.decode))
        #expect(fast == (try JSONDecoder().decode(MarkSyncRecordsModifyRequest.self, from: data)))
    }

    @Test(arguments: [
        #"{"operations":[]}"#, #" {"operations":[] } "#, #"{"operations":[],"atomic":true,"zoneID":{}}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":"\u00e9\/\"\\\n\u0000"}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":9223372036854775807,"type":"DOUBLE"}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":-9223372036854775808,"type":"STRING"}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":true,"type":"INT64"}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":null,"type":"TIMESTAMP"}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":"1","type":"INT64"}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"deleted":false,"recordName":"東京 🌃"}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"recordN\u0061me":"a","fields":{"\u00e9\n\"":{"v\u0061lue":1}}}}]}"#,
    ])
    func wellFormedBodiesAreReadAsJSONDecoderReadsThem(text: String) throws {
        // Given a well-formed body in its envelope, then it reads what JSONDecoder reads
        let data = Data(text.utf8)
        let fast = try #require(Array(data).withUnsafeBufferPointer(MarkSyncModifyBodyDecoder.decode))
        #expect(fast == (try JSONDecoder().decode(MarkSyncRecordsModifyRequest.self, from: data)))
    }

    @Test(arguments: [
        "", "{", "[]", "null", #"{"operations":[]} x"#, #"{"operations":[],"operations":[]}"#, #"{"zoneID":{}}"#,
        #"{"operations":[],"unknown":1}"#, #"{"operations":[{"operationType":"nuke","record":{}}]}"#,
        #"{"operations":[{"operationType":"create"}]}"#, #"{"operations":[{"operationType":"create","record":{},"desiredKeys":[]}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":1.5}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":1e3}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":01}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":-0}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":9223372036854775808}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":[1]}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":"\ud83c"}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":"x","value":"y"}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"type":"STRING"}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"fields":{"a":{"value":1},"a":{"value":2}}}}]}"#,
        #"{"operations":[{"operationType":"create","record":{"created":{"timestamp":1}}}]}"#,
        "{\"operations\":[{\"operationType\":\"create\",\"record\":{\"recordName\":\"\u{01}\"}}]}",
        #"{"operations":[{"operationType":"create","record":{"recordName":null}}]}"#,
    ])
    func anythingUnusualIsLeftToJSONDecoder(text: String) {
        // Given a body outside its envelope, then it declines, so JSONDecoder answers as before
        #expect(Array(text.utf8).withUnsafeBufferPointer(MarkSyncModifyBodyDecoder.decode) == nil)
    }
}
