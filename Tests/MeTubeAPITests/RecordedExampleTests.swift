import Foundation
import MeTubeAPI
import Testing

/// Every recorded example decodes as its wire type and encodes back to the same JSON value, also
/// when peers add keys this side does not know.
@Suite("Recorded wire examples")
struct RecordedExampleTests {
    @Test("decodes and encodes back to the same JSON value", arguments: WireExample.recorded)
    func roundTrip(example: WireExample) throws {
        // Given a recorded document
        let recorded = try WireJSON(try example.data)
        // When it is decoded as its wire type and encoded again
        let (encoded, stable) = try example.reencode(try example.data)
        // Then the encoding means the same, less only the documented keys the type does not keep
        #expect(try WireJSON(encoded) == recorded.removingKeys(example.droppedKeys))
        #expect(stable, "decoding the encoding gives another value")
    }

    @Test("ignores unknown keys at every level", arguments: WireExample.recorded)
    func unknownKeysAreIgnored(example: WireExample) throws {
        // Given a recorded document with unknown keys added to every object
        let recorded = try WireJSON(try example.data)
        let extended = recorded.addingUnknownFields()
        #expect(extended != recorded)
        // When it is decoded and encoded again
        let (encoded, _) = try example.reencode(try extended.data)
        // Then the unknown keys were read past and nothing else changed
        #expect(try WireJSON(encoded) == recorded.removingKeys(example.droppedKeys))
    }

    @Test("every fixture file is a recorded example, and every example has its file")
    func fixturesAreCovered() throws {
        let files = try WireExample.fixtureNames().filter { $0.hasSuffix(".json") }
        let examples = Set(WireExample.recorded.map(\.file))
        #expect(files == examples)
        #expect(examples.count == WireExample.recorded.count, "an example is listed twice")
    }
}
