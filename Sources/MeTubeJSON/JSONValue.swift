import Foundation

/// Any JSON value, read without a schema so that a reader can check a document field by field
/// and name exactly what is wrong (the hub's request validation, the subscription importers).
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members by key.
    case object([String: JSONValue])

    /// Why a text is not JSON: the parser's message and, when it gave one, the UTF-8 offset of the
    /// fault.
    public struct SyntaxError: Error, Sendable {
        /// The parser's message, without its offset and final period.
        public let message: String
        /// The UTF-8 offset the parser pointed at, when it named one.
        public let offset: Int?

        /// Splits a `JSONSerialization` message such as "Invalid value around character 14.".
        init(parserMessage: String) {
            let text = parserMessage.trimmingCharacters(in: .whitespaces.union(.init(charactersIn: ".")))
            guard let marker = text.range(of: " around character ") else {
                message = text
                offset = nil
                return
            }
            message = String(text[..<marker.lowerBound])
            offset = Int(text[marker.upperBound...].prefix(while: \.isNumber))
        }
    }

    /// Parses `bytes` as one JSON value (a bare string or number too).
    public static func parse(_ bytes: some DataProtocol) throws(SyntaxError) -> JSONValue {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
        } catch {
            throw SyntaxError(parserMessage: (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)")
        }
        return JSONValue(serialized: object)
    }

    /// Parses `text` as one JSON value.
    public static func parse(_ text: some StringProtocol) throws(SyntaxError) -> JSONValue {
        try parse(Data(text.utf8))
    }

    /// Converts what `JSONSerialization` returns.
    private init(serialized value: Any) {
        switch value {
        case let dictionary as [String: Any]: self = .object(dictionary.mapValues(JSONValue.init(serialized:)))
        case let array as [Any]: self = .array(array.map(JSONValue.init(serialized:)))
        case let string as String: self = .string(string)
        case let number as NSNumber: self = Self(number: number)
        default: self = .null
        }
    }

    /// A number as `JSONSerialization` made it: booleans are `c`, whole numbers a signed integer
    /// type, everything else a double.
    private init(number: NSNumber) {
        switch String(cString: number.objCType) {
        case "c": self = .bool(number.boolValue)
        case "s", "i", "l", "q": self = .integer(number.int64Value)
        default: self = .number(number.doubleValue)
        }
    }

    /// The member `key` of an object; `nil` for a missing member or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members[key]
    }

    /// The string, when this is one.
    public var string: String? {
        guard case let .string(value) = self else { return nil }
        return value
    }

    /// The number, when this is one (a whole number too).
    public var number: Double? {
        switch self {
        case let .integer(value): Double(value)
        case let .number(value): value
        default: nil
        }
    }

    /// The kind of value with its article, for messages: "an object", "a string", ….
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// A compact JSON rendering with sorted keys, for quoting a rejected value.
    public var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? kind
    }
}

extension JSONValue: Encodable {
    /// Encodes the value as the JSON it was read from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .string(value): try container.encode(value)
        case let .array(items): try container.encode(items)
        case let .object(members): try container.encode(members)
        }
    }
}
