import Foundation
import MeTubeAPI
import MeTubeJSON

/// Writes and reads the stored `fields` of a status record (`{"name":{"value":…,"type":"…"},…}`)
/// without `JSONEncoder` and `JSONDecoder`, which took most of the writer's time under load.
///
/// It handles the fields records usually hold: strings, whole numbers, booleans and nulls, with
/// a type tag or none, reading them with ``JSONScanner``. Anything else (a fractional number, a
/// list, an object, another key) makes it answer nil, and the caller uses Foundation's coders, so what is stored and what is
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
            throw ServerError.storage(.failed("record \(name) holds unreadable fields: \(error)"))
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

    /// The fields `data` holds, or nil when it holds other values than ``encode(_:)`` writes (or
    /// is not JSON), so that `JSONDecoder` must read it.
    static func decode(_ data: Data) -> [String: MarkSyncField]? {
        data.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw.bindMemory(to: UInt8.self))
            do throws(JSONScanner.Failure) {
                var fields: [String: MarkSyncField] = [:]
                try scanner.readObjectKeys { (scanner: inout JSONScanner, key: JSONKey) throws(JSONScanner.Failure) in
                    guard fields.updateValue(try field(&scanner), forKey: key.string) == nil else { throw scanner.fail("a field named twice") }
                }
                try scanner.expectEnd()
                return fields
            } catch {
                return nil
            }
        }
    }

    /// A field's value when it is a string, a plain whole number in `Int64`, a boolean or null;
    /// a failure for any other value, which `JSONDecoder` must read.
    static func scalar(_ scanner: inout JSONScanner) throws(JSONScanner.Failure) -> MarkSyncValue {
        switch try scanner.nextByte() {
        case UInt8(ascii: "\""): return .string(try scanner.readString())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try scanner.readBool())
        case UInt8(ascii: "n"):
            guard try scanner.consumeNull() else { throw scanner.fail("expected null") }
            return .null
        default: return .integer(try scanner.readPlainInteger())
        }
    }

    private static func field(_ scanner: inout JSONScanner) throws(JSONScanner.Failure) -> MarkSyncField {
        var value: MarkSyncValue?
        var type: String??
        try scanner.readObjectKeys { (scanner: inout JSONScanner, key: JSONKey) throws(JSONScanner.Failure) in
            if key.is("value"), value == nil {
                value = try scalar(&scanner)
            } else if key.is("type"), type == nil {
                type = .some(try scanner.consumeNull() ? nil : try scanner.readString())
            } else {
                throw scanner.fail("a key the fast path leaves to JSONDecoder")
            }
        }
        guard let value else { throw scanner.fail("a field without a value") }
        return MarkSyncField(value: value, type: type ?? nil)
    }

    private static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
