import Foundation
import MeTubeAPI
import Testing
@testable import MeTubeServer

@Suite struct MarkSyncFieldsCodecTests {
    /// Fields of every kind, awkward strings included.
    static let samples: [[String: MarkSyncField]] = {
        let strings = ["", "watched", "He said \"hi\" \\ back\nnew\ttab\u{01}\u{1F}\u{7F}", "a/b </script>", "東京 🌃 \u{2028}", "1765650000000-3", "null", "-12"]
        var samples: [[String: MarkSyncField]] = [[:]]
        for (index, text) in strings.enumerated() {
            samples.append([
                "status": .string(text), "lastModified": .timestamp(1_765_650_000_000 + Int64(index)), "hlc": MarkSyncField(value: .string(text)),
                "count": .int64(Int64.min + Int64(index)), "flag": MarkSyncField(value: .bool(index % 2 == 0), type: "INT64"),
                "gone": MarkSyncField(value: .null), "max": .int64(.max), text.isEmpty ? "e" : text: .string("key \(index)"),
            ])
        }
        samples.append(["position": .double(12.5), "status": .string("watched")])
        samples.append(["whole": .double(5)])
        samples.append(["list": MarkSyncField(value: .list([.string("a"), .integer(1)]), type: "LIST")])
        samples.append(["object": MarkSyncField(value: .object(["k": .bool(true)]))])
        return samples
    }()

    @Test(arguments: samples)
    func whatItWritesFoundationReadsAsTheSameFields(fields: [String: MarkSyncField]) throws {
        // Given fields, when the codec writes them (or declines), then JSONDecoder reads them back unchanged
        guard let data = MarkSyncFieldsCodec.encode(fields) else {
            #expect(fields.values.contains { if case .double = $0.value { true } else if case .list = $0.value { true } else if case .object = $0.value { true } else { false } })
            return
        }
        #expect(try JSONDecoder().decode([String: MarkSyncField].self, from: data) == fields)
        // and the codec reads its own output the same way
        #expect(MarkSyncFieldsCodec.decode(data) == fields)
    }

    @Test(arguments: samples)
    func whatFoundationWroteItReadsAsFoundationDoes(fields: [String: MarkSyncField]) throws {
        // Given fields as JSONEncoder stored them (earlier versions), when the codec reads them
        let data = try JSONEncoder().encode(fields)
        let foundation = try JSONDecoder().decode([String: MarkSyncField].self, from: data)

        // Then it reads what JSONDecoder reads, or declines so that JSONDecoder is used
        if let read = MarkSyncFieldsCodec.decode(data) { #expect(read == foundation) }
        #expect(MarkSyncFieldsCodec.decode(data) != nil || fields.values.contains { $0.value.stringValue == nil && $0.value.integerValue == nil && $0.value != .null && !($0.value == .bool(true) || $0.value == .bool(false)) })
    }

    @Test(arguments: ["", "{", "{\"a\":{}}", "{\"a\":{\"value\":1.5}}", "{\"a\":{\"value\":01}}", "{\"a\":{\"value\":\"x\",\"value\":\"y\"}}",
                      "{\"a\":{\"value\":\"\\ud83c\"}}", "{\"a\":{\"value\":[1]}}", "{\"a\":{\"value\":1,\"extra\":2}}", "{\"a\":{\"value\":1}} x",
                      "{\"a\":{\"value\":99999999999999999999}}", "{\"a\":{\"value\":\"\u{01}\"}}"])
    func anythingUnusualIsLeftToFoundation(text: String) {
        #expect(MarkSyncFieldsCodec.decode(Data(text.utf8)) == nil)
    }
}
