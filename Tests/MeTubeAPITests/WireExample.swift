import Foundation
import MeTubeAPI
import Testing

/// One recorded wire document (a file in `Fixtures/`, provenance in `Fixtures/SOURCES.md`) and
/// the wire type it must decode as.
struct WireExample: Sendable, CustomTestStringConvertible {
    /// The fixture's file name.
    let file: String
    /// The wire type's name, for messages.
    let typeName: String
    /// Documented keys the wire type does not keep: they are read past, so they are missing
    /// when the value is encoded again.
    let droppedKeys: Set<String>
    /// Decodes the JSON as the wire type and encodes the value again; `stable` says whether
    /// decoding that encoding gives the same value.
    let reencode: @Sendable (Data) throws -> (encoded: Data, stable: Bool)

    var testDescription: String { "\(file) as \(typeName)" }

    /// An example decoded as `type`.
    static func of<Wire: Codable & Equatable & Sendable>(_ file: String, _ type: Wire.Type, dropping droppedKeys: Set<String> = []) -> WireExample {
        WireExample(file: file, typeName: "\(type)", droppedKeys: droppedKeys) { data in
            let value = try JSONDecoder().decode(Wire.self, from: data)
            let encoded = try JSONEncoder().encode(value)
            return (encoded, try JSONDecoder().decode(Wire.self, from: encoded) == value)
        }
    }

    /// The fixture's bytes.
    var data: Data {
        get throws { try Self.fixture(file) }
    }

    /// The bytes of the fixture named `name`.
    static func fixture(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Fixtures/\(name)"])
        }
        return try Data(contentsOf: url)
    }

    /// The names of every file in `Fixtures/`.
    static func fixtureNames() throws -> Set<String> {
        guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else { return [] }
        return Set(try FileManager.default.contentsOfDirectory(atPath: url.path))
    }
}
