/// A record field dictionary: `{"value": …, "type": "STRING"}`.
public struct MarkSyncField: Codable, Sendable, Hashable {
    /// The field's value.
    public var value: MarkSyncValue
    /// The type tag (`STRING`, `INT64`, `DOUBLE`, `TIMESTAMP`, …); optional in requests, always
    /// sent by the server.
    public var type: String?

    /// Creates a field from a value and its type tag.
    public init(value: MarkSyncValue, type: String? = nil) {
        self.value = value
        self.type = type
    }

    private enum CodingKeys: String, CodingKey { case value, type }

    /// Decodes `value` then `type`, as the synthesized decoder would, to the same values. A
    /// `STRING`, `INT64` or `TIMESTAMP` tag is tried first as a hint, so a whole number does not
    /// first fail as a string (each failed attempt costs a thrown error); when the hint does not
    /// fit, ``MarkSyncValue`` decodes the value as always.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let hint = try? container.decodeIfPresent(String.self, forKey: .type)
        switch hint {
        case "STRING": value = try (try? container.decode(String.self, forKey: .value)).map(MarkSyncValue.string)
            ?? container.decode(MarkSyncValue.self, forKey: .value)
        case "INT64", "TIMESTAMP": value = try (try? container.decode(Int64.self, forKey: .value)).map(MarkSyncValue.integer)
            ?? container.decode(MarkSyncValue.self, forKey: .value)
        default: value = try container.decode(MarkSyncValue.self, forKey: .value)
        }
        type = try container.decodeIfPresent(String.self, forKey: .type)
    }

    /// A `STRING` field.
    public static func string(_ value: String) -> MarkSyncField { MarkSyncField(value: .string(value), type: "STRING") }
    /// A `TIMESTAMP` field holding milliseconds since 1970.
    public static func timestamp(_ millis: Int64) -> MarkSyncField { MarkSyncField(value: .integer(millis), type: "TIMESTAMP") }
    /// A `DOUBLE` field.
    public static func double(_ value: Double) -> MarkSyncField { MarkSyncField(value: .double(value), type: "DOUBLE") }
    /// An `INT64` field.
    public static func int64(_ value: Int64) -> MarkSyncField { MarkSyncField(value: .integer(value), type: "INT64") }

    /// The field with its type tag, inferred from the value when the sender left it out (a
    /// server of this shape always sends `type`); booleans become INT64 0 or 1.
    public var typed: MarkSyncField {
        guard type == nil else { return self }
        return switch value {
        case .string: MarkSyncField(value: value, type: "STRING")
        case .integer: MarkSyncField(value: value, type: "INT64")
        case .bool(let flag): MarkSyncField(value: .integer(flag ? 1 : 0), type: "INT64")
        case .double: MarkSyncField(value: value, type: "DOUBLE")
        case .list: MarkSyncField(value: value, type: "LIST")
        case .object, .null: self
        }
    }

    /// Why the value does not fit its type tag, or `nil` when it does (or carries no tag).
    public var typeMismatch: String? {
        guard let type, value != .null else { return nil }
        let fits: Bool = switch type {
        case "STRING", "BYTES", "ASSETID": value.stringValue != nil
        case "INT64", "TIMESTAMP": value.integerValue != nil
        case "DOUBLE": value.doubleValue != nil
        case "REFERENCE", "LOCATION", "ASSET": if case .object = value { true } else { false }
        case _ where type.hasSuffix("_LIST") || type == "LIST": if case .list = value { true } else { false }
        default: false
        }
        return fits ? nil : "Invalid value, expected type \(type)"
    }
}
