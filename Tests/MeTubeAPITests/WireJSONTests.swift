import Foundation
import Testing

/// The comparison the round-trip tests rest on tells apart what the wire tells apart, and nothing
/// more.
@Suite("Wire JSON comparison")
struct WireJSONTests {
    private func json(_ text: String) throws -> WireJSON { try WireJSON(Data(text.utf8)) }

    @Test func keyOrderAndSpacingDoNotMatter() throws {
        #expect(try json(#"{"a":1,"b":[true,null]}"#) == json(#"{ "b" : [ true , null ] , "a" : 1 }"#))
    }

    @Test func differentValuesDiffer() throws {
        #expect(try json(#"{"a":true}"#) != json(#"{"a":1}"#))
        #expect(try json(#"{"a":null}"#) != json(#"{}"#))
        #expect(try json(#"{"a":"1"}"#) != json(#"{"a":1}"#))
        #expect(try json(#"[1,2]"#) != json(#"[2,1]"#))
        #expect(try json("9007199254740993") != json("9007199254740992"))
        #expect(try json("12.5") != json("12.25"))
    }

    @Test func addingUnknownFieldsSkipsFieldNamesAndValues() throws {
        // Given a record with a field whose value is an object
        let record = try json(#"{"fields":{"ref":{"value":{"recordName":"a"},"type":"REFERENCE"}}}"#)
        // When unknown keys are added
        guard case .object(let top) = record.addingUnknownFields(),
              case .object(let fields) = top["fields"], case .object(let field) = fields["ref"] else {
            Issue.record("shape lost")
            return
        }
        // Then the record and the field dictionary get them, the fields map and the value do not
        #expect(top.keys.contains("xUnknownObject"))
        #expect(field.keys.contains("xUnknownObject"))
        #expect(Set(fields.keys) == ["ref"])
        #expect(field["value"] == .object(["recordName": .string("a")]))
        #expect(record.addingUnknownFields().removingKeys(Set(WireJSON.unknownFields.keys)) == record)
    }
}
