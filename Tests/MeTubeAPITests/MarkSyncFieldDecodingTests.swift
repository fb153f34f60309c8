import Foundation
import MeTubeAPI
import Testing

@Suite struct MarkSyncFieldDecodingTests {
    /// What the synthesized decoder read: the value as a ``MarkSyncValue``, then the tag.
    struct Reference: Decodable, Equatable {
        var value: MarkSyncValue
        var type: String?
    }

    @Test(arguments: [
        #"{"value":"x","type":"STRING"}"#, #"{"value":5,"type":"STRING"}"#, #"{"value":"5","type":"INT64"}"#,
        #"{"value":1765650000000,"type":"TIMESTAMP"}"#, #"{"value":5.5,"type":"INT64"}"#, #"{"value":5.0,"type":"TIMESTAMP"}"#,
        #"{"value":null,"type":"INT64"}"#, #"{"value":[1,"a"],"type":"STRING"}"#, #"{"type":"STRING","value":1e3}"#,
        #"{"value":true,"type":"INT64"}"#, #"{"value":99999999999999999999,"type":"INT64"}"#, #"{"value":1}"#,
        #"{"value":{"k":2},"type":"TIMESTAMP"}"#, #"{"value":5,"type":7}"#, #"{"type":"STRING"}"#, #"{"value":"x","type":null}"#,
    ])
    func aTaggedFieldDecodesAsTheUntaggedWayDoes(json: String) {
        // Given a field as a client may send it, when it is decoded with its tag as a hint
        let data = Data(json.utf8)
        let hinted = Result { try JSONDecoder().decode(MarkSyncField.self, from: data) }
        let reference = Result { try JSONDecoder().decode(Reference.self, from: data) }

        // Then it is what the plain decoding gives, or both fail
        switch (hinted, reference) {
        case (.success(let field), .success(let expected)): #expect(Reference(value: field.value, type: field.type) == expected)
        case (.failure, .failure): break
        default: Issue.record("\(json): hinted \(hinted), reference \(reference)")
        }
    }
}
