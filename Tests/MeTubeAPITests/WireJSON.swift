import Foundation

/// A JSON document as a value, for comparing wire JSON by meaning rather than by text: key order
/// and spacing do not matter; a missing key differs from `null`, `true` from `1`, and whole
/// numbers compare exactly (beyond 2^53 too).
indirect enum WireJSON: Codable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([WireJSON])
    case object([String: WireJSON])

    /// Parses `data`.
    init(_ data: Data) throws {
        self = try JSONDecoder().decode(WireJSON.self, from: data)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([WireJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: WireJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The document as compact JSON with sorted keys.
    var data: Data {
        get throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(self)
        }
    }

    var description: String {
        (try? data).map { String(decoding: $0, as: UTF8.self) } ?? "<unencodable>"
    }
}
