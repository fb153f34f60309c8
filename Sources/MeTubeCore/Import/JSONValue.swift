import Foundation

/// A parsed JSON value, for reading exports whose shape must be checked field by field.
enum JSONValue: Equatable {
    /// An object, its members by key.
    case object([String: JSONValue])
    /// An array.
    case array([JSONValue])
    /// A string.
    case string(String)
    /// A number.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// Why a text is not JSON: the parser's message and, when it gave one, the UTF-8 offset of the fault.
    struct SyntaxError: Error {
        /// The parser's message, without its offset and final period.
        let message: String
        /// The UTF-8 offset the parser pointed at, when it named one.
        let offset: Int?

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

    /// Parses `text` as one JSON value.
    static func parse(_ text: some StringProtocol) throws(SyntaxError) -> JSONValue {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        } catch {
            throw SyntaxError(parserMessage: (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)")
        }
        return JSONValue(serialized: object)
    }

    /// Converts what `JSONSerialization` returns.
    private init(serialized value: Any) {
        switch value {
        case let dictionary as [String: Any]: self = .object(dictionary.mapValues(JSONValue.init(serialized:)))
        case let array as [Any]: self = .array(array.map(JSONValue.init(serialized:)))
        case let string as String: self = .string(string)
        case let number as NSNumber where String(cString: number.objCType) == "c": self = .bool(number.boolValue)
        case let number as NSNumber: self = .number(number.doubleValue)
        default: self = .null
        }
    }

    /// The member `key` of an object; `nil` for a missing member or a value that is not an object.
    subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members[key]
    }

    /// The string, when this is one.
    var string: String? {
        guard case let .string(value) = self else { return nil }
        return value
    }

    /// The kind of value with its article, for messages: "an object", "a string", ….
    var kind: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// A compact JSON rendering with sorted keys, for quoting a rejected value.
    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? kind
    }
}

extension JSONValue: Encodable {
    /// Encodes the value as the JSON it was parsed from.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .object(members): try container.encode(members)
        case let .array(items): try container.encode(items)
        case let .string(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .bool(value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
