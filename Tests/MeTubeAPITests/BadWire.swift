import Foundation
import Testing

/// A document a wire type must refuse, and where and how the refusal must point.
struct BadWire: Sendable, CustomTestStringConvertible {
    /// The kind of `DecodingError` expected.
    enum Kind: String, Sendable {
        case typeMismatch, valueNotFound, keyNotFound, dataCorrupted
    }

    /// The document.
    let json: String
    /// The wire type's name, for messages.
    let typeName: String
    /// The expected kind.
    let kind: Kind
    /// The path of the offending value, e.g. `videos[0].seq` (the missing key included).
    let path: String
    /// Decodes `json` as the wire type.
    let decode: @Sendable (Data) throws -> Void

    var testDescription: String { "\(typeName) \(json)" }

    /// A document `type` must refuse with `kind` at `path`.
    static func of<Wire: Decodable & Sendable>(_ type: Wire.Type, _ json: String, _ kind: Kind, at path: String) -> BadWire {
        BadWire(json: json, typeName: "\(type)", kind: kind, path: path) { data in
            _ = try JSONDecoder().decode(Wire.self, from: data)
        }
    }

    /// The error decoding failed with: its kind, the path it names, and its message.
    static func describe(_ error: DecodingError) -> (kind: Kind, path: String, message: String) {
        switch error {
        case .typeMismatch(_, let context):
            (.typeMismatch, path(context.codingPath), context.debugDescription)
        case .valueNotFound(_, let context):
            (.valueNotFound, path(context.codingPath), context.debugDescription)
        case .keyNotFound(let key, let context):
            (.keyNotFound, path(context.codingPath + [key]), context.debugDescription)
        case .dataCorrupted(let context):
            (.dataCorrupted, path(context.codingPath), context.debugDescription)
        @unknown default:
            (.dataCorrupted, "", "\(error)")
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "") { text, key in
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
    }
}
