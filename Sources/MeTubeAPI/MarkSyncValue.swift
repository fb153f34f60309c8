/// A field value as it travels in a CloudKit-shaped record: any JSON value.
///
/// Whole numbers decode as ``integer(_:)`` so that TIMESTAMP and INT64 values keep every digit;
/// other numbers decode as ``double(_:)``.
public enum MarkSyncValue: Codable, Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case list([MarkSyncValue])
    case object([String: MarkSyncValue])
    case null

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([MarkSyncValue].self) {
            self = .list(value)
        } else if let value = try? container.decode([String: MarkSyncValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Unsupported field value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .list(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    /// The value as a string, when it is one.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The value as a whole number, when it is one.
    public var integerValue: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The value as a number, whole or not.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}
