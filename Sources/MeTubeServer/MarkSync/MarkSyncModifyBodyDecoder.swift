import Foundation
import MeTubeAPI
import MeTubeJSON

/// Reads a `records/modify` body without `JSONDecoder` when it is plainly well formed: the keys
/// `operations`, `zoneID` and `atomic`; operations of a known `operationType` with a `record` of
/// `recordName`, `recordType`, `recordChangeTag`, `fields` and `deleted`; field values that are
/// strings, whole numbers within `Int64`, booleans or null, with an optional string `type`.
///
/// Anything else (another key, a key twice, a fraction or exponent, a list or object value, a
/// surrogate escape, a control character, bytes after the body) makes it decline with `nil`, and
/// the caller reads the body with `JSONDecoder`, which accepts or names the error exactly as
/// before. What it accepts it reads as `JSONDecoder` would (`StatusModifyBodyDecoderTests`
/// compares the two on generated and hostile bodies). Its depth is fixed by the shape, and the
/// body is bounded by the route's size limit.
///
/// It reads the bytes in place and compares keys without escapes as bytes, making strings only of
/// field names, values and keys written with escapes.
struct MarkSyncModifyBodyDecoder {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The request in `bytes`, or `nil` when `JSONDecoder` must read it.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> MarkSyncRecordsModifyRequest? {
        var decoder = MarkSyncModifyBodyDecoder(bytes)
        guard let request = decoder.request() else { return nil }
        decoder.skipSpace()
        return decoder.index == bytes.count ? request : nil
    }

    private mutating func request() -> MarkSyncRecordsModifyRequest? {
        var operations: [MarkSyncRecordsModifyRequest.Operation]?
        var zoneID: MarkSyncZoneID?
        var atomic: Bool?
        let read = object { decoder, key in
            if key.is("operations"), operations == nil { operations = decoder.array { $0.operation() }; return operations != nil }
            if key.is("zoneID"), zoneID == nil { zoneID = decoder.zoneID(); return zoneID != nil }
            if key.is("atomic"), atomic == nil { atomic = decoder.bool(); return atomic != nil }
            return false
        }
        guard read, let operations else { return nil }
        return MarkSyncRecordsModifyRequest(operations: operations, zoneID: zoneID, atomic: atomic)
    }

    private mutating func operation() -> MarkSyncRecordsModifyRequest.Operation? {
        var type: MarkSyncRecordsModifyRequest.Operation.OperationType?
        var record: MarkSyncRecord?
        let read = object { decoder, key in
            if key.is("operationType"), type == nil {
                type = decoder.string().flatMap(MarkSyncRecordsModifyRequest.Operation.OperationType.init(rawValue:))
                return type != nil
            }
            if key.is("record"), record == nil {
                record = decoder.record()
                return record != nil
            }
            return false
        }
        guard read, let type, let record else { return nil }
        return MarkSyncRecordsModifyRequest.Operation(type, record: record)
    }

    private mutating func zoneID() -> MarkSyncZoneID? {
        var name: String?
        var owner: String?
        let read = object { decoder, key in
            if key.is("zoneName"), name == nil { name = decoder.string(); return name != nil }
            if key.is("ownerRecordName"), owner == nil { owner = decoder.string(); return owner != nil }
            return false
        }
        guard read else { return nil }
        return MarkSyncZoneID(zoneName: name ?? MarkSyncZoneID.defaultZoneName, ownerRecordName: owner)
    }

    private mutating func record() -> MarkSyncRecord? {
        var record = MarkSyncRecord()
        var seen: UInt8 = 0
        let read = object { decoder, key in
            guard let member = RecordMember(key), seen & member.bit == 0 else { return false }
            seen |= member.bit
            switch member {
            case .recordName: record.recordName = decoder.string(); return record.recordName != nil
            case .recordType: record.recordType = decoder.string(); return record.recordType != nil
            case .recordChangeTag: record.recordChangeTag = decoder.string(); return record.recordChangeTag != nil
            case .deleted: record.deleted = decoder.bool(); return record.deleted != nil
            case .fields:
                var fields: [String: MarkSyncField] = [:]
                fields.reserveCapacity(8)
                let read = decoder.object { decoder, key in
                    guard let name = key.string, let field = decoder.field() else { return false }
                    return fields.updateValue(field, forKey: name) == nil
                }
                record.fields = fields
                return read
            }
        }
        return read ? record : nil
    }

    /// The keys a record may have, each at most once.
    private enum RecordMember {
        case recordName, recordType, recordChangeTag, deleted, fields

        /// The member `key` names, if any.
        init?(_ key: Key) {
            if key.is("recordName") {
                self = .recordName
            } else if key.is("recordType") {
                self = .recordType
            } else if key.is("recordChangeTag") {
                self = .recordChangeTag
            } else if key.is("deleted") {
                self = .deleted
            } else if key.is("fields") {
                self = .fields
            } else {
                return nil
            }
        }

        /// The member's bit in the set of members seen.
        var bit: UInt8 {
            switch self {
            case .recordName: 1
            case .recordType: 2
            case .recordChangeTag: 4
            case .deleted: 8
            case .fields: 16
            }
        }
    }

    /// A field: `MarkSyncField`'s decoding, whose `type` hint changes nothing for these values.
    private mutating func field() -> MarkSyncField? {
        var value: MarkSyncValue?
        var type: String?
        let read = object { decoder, key in
            if key.is("value"), value == nil { value = decoder.scalar(); return value != nil }
            if key.is("type"), type == nil { type = decoder.string(); return type != nil }
            return false
        }
        guard read, let value else { return nil }
        return MarkSyncField(value: value, type: type)
    }

    private mutating func scalar() -> MarkSyncValue? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string().map(MarkSyncValue.string)
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return bool().map(MarkSyncValue.bool)
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return integer().map(MarkSyncValue.integer)
        }
    }

    /// Reads an object, calling `member` after each key with the index on its value; `member`
    /// reads the value and answers whether it was acceptable.
    private mutating func object(_ member: (inout MarkSyncModifyBodyDecoder, Key) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        if consume(UInt8(ascii: "}")) { return true }
        while true {
            guard let key = key(), consume(UInt8(ascii: ":")), member(&self, key) else { return false }
            if consume(UInt8(ascii: "}")) { return true }
            guard consume(UInt8(ascii: ",")) else { return false }
        }
    }

    /// An object's key: the bytes between its quotes, or the string they stand for when they hold
    /// an escape.
    private mutating func key() -> Key? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return .plain(UnsafeBufferPointer(rebasing: bytes[start..<index - 1]))
            }
            if byte == UInt8(ascii: "\\") {
                index = start - 1
                return string().map(Key.unescaped)
            }
            guard byte >= 0x20 else { return nil }
            index += 1
        }
        return nil
    }

    /// An object key as it stands in the body.
    private enum Key {
        /// A key without escapes: its bytes.
        case plain(UnsafeBufferPointer<UInt8>)
        /// A key with escapes: the string it stands for.
        case unescaped(String)

        /// Whether the key is `word`.
        func `is`(_ word: StaticString) -> Bool {
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            switch self {
            case .plain(let bytes): return bytes.count == expected.count && (bytes.isEmpty || memcmp(expected.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
            case .unescaped(let text): return text.utf8.elementsEqual(expected)
            }
        }

        /// The key as a string, or `nil` when it is not valid UTF-8.
        var string: String? {
            switch self {
            case .plain(let bytes): JSONEscape.text(bytes)
            case .unescaped(let text): text
            }
        }
    }

    private mutating func array<Element>(_ element: (inout MarkSyncModifyBodyDecoder) -> Element?) -> [Element]? {
        guard consume(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        if consume(UInt8(ascii: "]")) { return elements }
        while true {
            guard let next = element(&self) else { return nil }
            elements.append(next)
            if consume(UInt8(ascii: "]")) { return elements }
            guard consume(UInt8(ascii: ",")) else { return nil }
        }
    }

    private mutating func bool() -> Bool? {
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// A whole number in JSON's grammar (no fraction, no exponent) within `Int64`.
    private mutating func integer() -> Int64? {
        skipSpace()
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digits = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > digits, index - digits <= 19, bytes[digits] != UInt8(ascii: "0") || index - digits == 1 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") { return nil }
        guard let value = JSONEscape.integer(UnsafeBufferPointer(rebasing: bytes[start..<index])) else { return nil }
        if value == 0, bytes[start] == UInt8(ascii: "-") { return nil }
        return value
    }

    /// A string with the escapes `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` and `\u` outside
    /// the surrogates; valid UTF-8 and no control characters.
    private mutating func string() -> String? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        var start = index
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let end = index
                index += 1
                guard !text.isEmpty else {
                    return JSONEscape.text(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                }
                text.append(contentsOf: bytes[start..<end])
                return text.withUnsafeBufferPointer(JSONEscape.text)
            }
            guard byte >= 0x20 else { return nil }
            guard byte == UInt8(ascii: "\\") else { index += 1; continue }
            text.append(contentsOf: bytes[start..<index])
            guard index + 1 < bytes.count else { return nil }
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "u"):
                guard index + 4 <= bytes.count, let hex = String(validating: bytes[index..<index + 4], as: UTF8.self),
                      hex.utf8.allSatisfy(\.isHexDigit), let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code)
                else { return nil }
                text.append(contentsOf: String(Character(scalar)).utf8)
                index += 4
            default:
                guard let simple = JSONEscape.byte(escapedBy: escaped) else { return nil }
                text.append(simple)
            }
            start = index
        }
        return nil
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { expected in bytes[index..<index + count].elementsEqual(expected) }
        if matches { index += count }
        return matches
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
