import Foundation
import MeTubeAPI
import MeTubeJSON

/// Writes and reads the stored `fields` of a status record (`{"name":{"value":…,"type":"…"},…}`)
/// without `JSONEncoder` and `JSONDecoder`, which took most of the writer's time under load.
///
/// It handles the fields records usually hold: strings, whole numbers, booleans and nulls, with
/// a type tag or none. Anything else (a fractional number, a list, an object, an unusual layout)
/// makes it answer nil, and the caller uses Foundation's coders, so what is stored and what is
/// read back are the same as with them.
enum MarkSyncFieldsCodec {
    /// The stored form of `fields`: the layout ``encode(_:)`` writes, or `JSONEncoder`'s JSON of
    /// them when that cannot hold a value.
    static func stored(_ fields: [String: MarkSyncField]) throws -> Data {
        try encode(fields) ?? JSONEncoder().encode(fields)
    }

    /// The fields of record `name` from their stored form (either coder's JSON); a storage error
    /// when they cannot be read.
    static func fields(stored data: Data, of name: String) throws -> [String: MarkSyncField] {
        do {
            return try decode(data) ?? JSONDecoder().decode([String: MarkSyncField].self, from: data)
        } catch {
            throw ServerError.storage("record \(name) holds unreadable fields: \(error)")
        }
    }

    /// The fields as JSON, or nil when a value is not a string, whole number, boolean or null.
    static func encode(_ fields: [String: MarkSyncField]) -> Data? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2 + fields.count * 64)
        bytes.append(UInt8(ascii: "{"))
        for (index, (name, field)) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONString.write(name, to: &bytes)
            append(":{\"value\":", to: &bytes)
            switch field.value {
            case .string(let value): JSONString.write(value, to: &bytes)
            case .integer(let value): JSONNumber.write(value, to: &bytes)
            case .bool(let value): append(value ? "true" : "false", to: &bytes)
            case .null: append("null", to: &bytes)
            case .double, .list, .object: return nil
            }
            if let type = field.type {
                append(",\"type\":", to: &bytes)
                JSONString.write(type, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "}"))
        return Data(bytes)
    }

    /// The fields `data` holds, or nil when it is not in the layout ``encode(_:)`` writes (or
    /// holds other values), so that `JSONDecoder` must read it.
    static func decode(_ data: Data) -> [String: MarkSyncField]? {
        data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            return reader.fields()
        }
    }

    private static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A forward reader over the bytes of one fields object.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        mutating func fields() -> [String: MarkSyncField]? {
            guard take("{") else { return nil }
            var fields: [String: MarkSyncField] = [:]
            if take("}") { return end() ? fields : nil }
            repeat {
                guard let name = string(), take(":"), let field = field(), fields.updateValue(field, forKey: name) == nil else { return nil }
            } while take(",")
            return take("}") && end() ? fields : nil
        }

        private mutating func field() -> MarkSyncField? {
            guard take("{") else { return nil }
            var value: MarkSyncValue?
            var type: String??
            repeat {
                guard let key = string(), take(":") else { return nil }
                switch key {
                case "value" where value == nil:
                    guard let read = self.value() else { return nil }
                    value = read
                case "type" where type == nil:
                    if takeLiteral("null") {
                        type = .some(nil)
                    } else {
                        guard let read = string() else { return nil }
                        type = read
                    }
                default:
                    return nil
                }
            } while take(",")
            guard take("}"), let value else { return nil }
            return MarkSyncField(value: value, type: type ?? nil)
        }

        private mutating func value() -> MarkSyncValue? {
            skipSpace()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "\""): return string().map(MarkSyncValue.string)
            case UInt8(ascii: "t"): return takeLiteral("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return takeLiteral("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return takeLiteral("null") ? .null : nil
            default: return integer().map(MarkSyncValue.integer)
            }
        }

        /// A whole number in Int64's range; nil for anything else (fractions, exponents).
        private mutating func integer() -> Int64? {
            let start = position
            if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
            let digits = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            guard position > digits, bytes[digits] != UInt8(ascii: "0") || position == digits + 1 else { return nil }
            if position < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position]) { return nil }
            return JSONEscape.integer(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        }

        /// A string without escapes other than `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`
        /// and `\u` below 0x80 that is not a surrogate; nil for anything else or invalid UTF-8.
        private mutating func string() -> String? {
            guard take("\"") else { return nil }
            let start = position
            var text: [UInt8] = []
            var isEscaped = false
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard isEscaped else { return JSONEscape.text(UnsafeBufferPointer(rebasing: bytes[start..<position - 1])) }
                    return text.withUnsafeBufferPointer(JSONEscape.text)
                case UInt8(ascii: "\\"):
                    if !isEscaped {
                        text.append(contentsOf: bytes[start..<position - 1])
                        isEscaped = true
                    }
                    guard position < bytes.count else { return nil }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "u"):
                        guard position + 4 <= bytes.count,
                              let code = UInt8(String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + 4]), as: UTF8.self), radix: 16),
                              code < 0x80 else { return nil }
                        text.append(code)
                        position += 4
                    default:
                        guard let simple = JSONEscape.byte(escapedBy: escape) else { return nil }
                        text.append(simple)
                    }
                case 0..<0x20:
                    return nil
                default:
                    if isEscaped { text.append(byte) }
                }
            }
            return nil
        }

        private mutating func take(_ character: Unicode.Scalar) -> Bool {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        private mutating func takeLiteral(_ literal: StaticString) -> Bool {
            skipSpace()
            let count = literal.utf8CodeUnitCount
            guard position + count <= bytes.count,
                  UnsafeBufferPointer(rebasing: bytes[position..<position + count]).elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: count)) else { return false }
            position += count
            return true
        }

        private mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        private mutating func end() -> Bool {
            skipSpace()
            return position == bytes.count
        }
    }
}
