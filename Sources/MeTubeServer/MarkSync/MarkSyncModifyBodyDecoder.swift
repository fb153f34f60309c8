import Foundation
import MeTubeAPI
import MeTubeJSON

/// Reads a `records/modify` body without `JSONDecoder` when it is plainly well formed: the keys
/// `operations`, `zoneID` and `atomic`; operations of a known `operationType` with a `record` of
/// `recordName`, `recordType`, `recordChangeTag`, `fields` and `deleted`; field values that are
/// strings, whole numbers within `Int64`, booleans or null, with an optional string `type`.
///
/// Anything else (another key, a key twice, a fraction or exponent, a list or object value, bytes
/// after the body, anything ``JSONScanner`` refuses) makes it decline with `nil`, and the caller
/// reads the body with `JSONDecoder`, which accepts or names the error exactly as before. What it
/// accepts it reads as `JSONDecoder` would (`MarkSyncModifyBodyDecoderTests` compares the two on
/// generated and hostile bodies). Its depth is fixed by the shape, and the body is bounded by the
/// route's size limit. Keys are compared as bytes; only field names, values and escaped keys
/// become strings.
enum MarkSyncModifyBodyDecoder {
    private typealias Failure = JSONScanner.Failure

    /// The request in `bytes`, or `nil` when `JSONDecoder` must read it.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> MarkSyncRecordsModifyRequest? {
        var scanner = JSONScanner(bytes)
        do throws(Failure) {
            let request = try request(&scanner)
            try scanner.expectEnd()
            return request
        } catch {
            return nil
        }
    }

    private static func request(_ scanner: inout JSONScanner) throws(Failure) -> MarkSyncRecordsModifyRequest {
        var operations: [MarkSyncRecordsModifyRequest.Operation]?
        var zoneID: MarkSyncZoneID?
        var atomic: Bool?
        try scanner.readObjectKeys { (scanner: inout JSONScanner, key: JSONKey) throws(Failure) in
            if key.is("operations"), operations == nil {
                var list: [MarkSyncRecordsModifyRequest.Operation] = []
                try scanner.readArray { (scanner: inout JSONScanner) throws(Failure) in list.append(try operation(&scanner)) }
                operations = list
            } else if key.is("zoneID"), zoneID == nil {
                zoneID = try Self.zoneID(&scanner)
            } else if key.is("atomic"), atomic == nil {
                atomic = try scanner.readBool()
            } else {
                throw scanner.fail("a key the fast path leaves to JSONDecoder")
            }
        }
        guard let operations else { throw scanner.fail("no operations") }
        return MarkSyncRecordsModifyRequest(operations: operations, zoneID: zoneID, atomic: atomic)
    }

    private static func operation(_ scanner: inout JSONScanner) throws(Failure) -> MarkSyncRecordsModifyRequest.Operation {
        var type: MarkSyncRecordsModifyRequest.Operation.OperationType?
        var record: MarkSyncRecord?
        try scanner.readObjectKeys { (scanner: inout JSONScanner, key: JSONKey) throws(Failure) in
            if key.is("operationType"), type == nil {
                guard let known = MarkSyncRecordsModifyRequest.Operation.OperationType(rawValue: try scanner.readString()) else {
                    throw scanner.fail("unknown operationType")
                }
                type = known
            } else if key.is("record"), record == nil {
                record = try Self.record(&scanner)
            } else {
                throw scanner.fail("a key the fast path leaves to JSONDecoder")
            }
        }
        guard let type, let record else { throw scanner.fail("an operation without its type or record") }
        return MarkSyncRecordsModifyRequest.Operation(type, record: record)
    }

    private static func zoneID(_ scanner: inout JSONScanner) throws(Failure) -> MarkSyncZoneID {
        var name: String?
        var owner: String?
        try scanner.readObjectKeys { (scanner: inout JSONScanner, key: JSONKey) throws(Failure) in
            if key.is("zoneName"), name == nil {
                name = try scanner.readString()
            } else if key.is("ownerRecordName"), owner == nil {
                owner = try scanner.readString()
            } else {
                throw scanner.fail("a key the fast path leaves to JSONDecoder")
            }
        }
        return MarkSyncZoneID(zoneName: name ?? MarkSyncZoneID.defaultZoneName, ownerRecordName: owner)
    }

    private static func record(_ scanner: inout JSONScanner) throws(Failure) -> MarkSyncRecord {
        var record = MarkSyncRecord()
        var seen: UInt8 = 0
        try scanner.readObjectKeys { (scanner: inout JSONScanner, key: JSONKey) throws(Failure) in
            guard let member = RecordMember(key), seen & member.bit == 0 else { throw scanner.fail("a key the fast path leaves to JSONDecoder") }
            seen |= member.bit
            switch member {
            case .recordName: record.recordName = try scanner.readString()
            case .recordType: record.recordType = try scanner.readString()
            case .recordChangeTag: record.recordChangeTag = try scanner.readString()
            case .deleted: record.deleted = try scanner.readBool()
            case .fields:
                var fields: [String: MarkSyncField] = [:]
                fields.reserveCapacity(8)
                try scanner.readObjectKeys { (scanner: inout JSONScanner, key: JSONKey) throws(Failure) in
                    guard fields.updateValue(try field(&scanner), forKey: key.string) == nil else { throw scanner.fail("a field named twice") }
                }
                record.fields = fields
            }
        }
        return record
    }

    /// The keys a record may have, each at most once.
    private enum RecordMember {
        case recordName, recordType, recordChangeTag, deleted, fields

        /// The member `key` names, if any.
        init?(_ key: JSONKey) {
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
    private static func field(_ scanner: inout JSONScanner) throws(Failure) -> MarkSyncField {
        var value: MarkSyncValue?
        var type: String?
        try scanner.readObjectKeys { (scanner: inout JSONScanner, key: JSONKey) throws(Failure) in
            if key.is("value"), value == nil {
                value = try MarkSyncFieldsCodec.scalar(&scanner)
            } else if key.is("type"), type == nil {
                type = try scanner.readString()
            } else {
                throw scanner.fail("a key the fast path leaves to JSONDecoder")
            }
        }
        guard let value else { throw scanner.fail("a field without a value") }
        return MarkSyncField(value: value, type: type)
    }
}
