import Foundation
import MeTubeJSON
import Testing

/// ``JSONValue`` is the one schema-less JSON value: the hub's request validation tells integers
/// from other numbers and booleans, and the importers quote rejected values and point at syntax
/// errors.
@Suite struct JSONValueTests {
    @Test func numbersBooleansAndIntegersAreToldApart() throws {
        let cases: [(String, JSONValue)] = [
            ("5", .integer(5)),
            ("-3", .integer(-3)),
            ("9223372036854775807", .integer(.max)),
            ("18446744073709551615", .number(18_446_744_073_709_551_615)),
            ("5.5", .number(5.5)),
            ("1e2", .number(100)),
            ("true", .bool(true)),
            ("false", .bool(false)),
            ("1", .integer(1)),
            ("0", .integer(0)),
            ("null", .null),
            (#"{"a":[1,"x",null,{"b":false}]}"#, .object(["a": .array([.integer(1), .string("x"), .null, .object(["b": .bool(false)])])])),
        ]
        for (text, expected) in cases {
            #expect(try JSONValue.parse(text) == expected, "\(text)")
        }
    }

    @Test func aSyntaxErrorIsThrownWithTheParsersMessage() {
        for text in [#"{"a": tru}"#, "", "[1,", #"{"a" 1}"#] {
            do {
                let value = try JSONValue.parse(text)
                Issue.record("\(text.debugDescription) parsed as \(value)")
            } catch {
                #expect(!error.message.isEmpty && !error.message.hasSuffix("."), "\(text.debugDescription): \(error.message)")
            }
        }
    }

    @Test func aValueIsQuotedAsCompactSortedJSON() throws {
        let value = try JSONValue.parse(#"{ "b" : [1, 2.5], "a" : "x/y" }"#)
        #expect(value.text == #"{"a":"x/y","b":[1,2.5]}"#)
        #expect(value.kind == "an object" && value["a"]?.string == "x/y" && value["c"] == nil)
    }
}
