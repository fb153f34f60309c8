import Foundation
import MeTubeAPI
import MeTubeJSON
import NIOCore

/// Writes the answers of `records/modify` and `changes/zone` without `JSONEncoder`, which took
/// about a third of the server's time on these routes under load. The bytes gather in an array and
/// go into a `ByteBuffer` at once: a `ByteBuffer` written a byte at a time checks its storage's
/// uniqueness and exclusive access on every byte.
///
/// The JSON means the same as `JSONEncoder`'s (`MarkSyncJSONWriterTests` decodes both and compares
/// them): the same keys, absent optionals left out, strings escaped byte for byte as `JSONEncoder`
/// escapes them (`\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00xx` in lowercase for the other control
/// characters, non-ASCII unescaped). Keys come in declaration order; `JSONEncoder` orders them by
/// hash, differently from run to run, so no client can depend on its order. The rare parts (per-record and
/// per-zone errors, `DOUBLE` values) are written by `JSONEncoder` and spliced in, so a non-finite
/// double still fails the answer as before.
enum MarkSyncJSONWriter {
    /// The `records/modify` answer: `{"records":[…]}`.
    static func records(_ response: MarkSyncRecordsResponse) throws -> ByteBuffer {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 + response.records.count * 256)
        bytes.append(static: "{\"records\":[")
        for (index, result) in response.records.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            switch result {
            case .success(let record): try writeRecord(record, to: &bytes)
            case .failure(let error): bytes.append(contentsOf: try JSONEncoder().encode(error))
            }
        }
        bytes.append(static: "]}")
        return ByteBuffer(bytes: bytes)
    }

    /// The `changes/zone` answer: `{"zones":[…]}`.
    static func zoneChanges(_ response: MarkSyncZoneChangesResponse) throws -> ByteBuffer {
        var bytes: [UInt8] = []
        let records = response.zones.reduce(0) { count, zone in
            if case .success(let changes) = zone { count + changes.records.count } else { count }
        }
        bytes.reserveCapacity(64 + response.zones.count * 128 + records * 256)
        bytes.append(static: "{\"zones\":[")
        for (index, zone) in response.zones.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            switch zone {
            case .success(let changes):
                bytes.append(static: "{\"zoneID\":")
                writeZoneID(changes.zoneID, to: &bytes)
                bytes.append(static: ",\"records\":[")
                for (recordIndex, record) in changes.records.enumerated() {
                    if recordIndex > 0 { bytes.append(UInt8(ascii: ",")) }
                    try writeRecord(record, to: &bytes)
                }
                bytes.append(static: "],\"syncToken\":")
                JSONString.write(changes.syncToken, escapingSlashes: true, to: &bytes)
                bytes.append(static: ",\"moreComing\":")
                writeBool(changes.moreComing, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            case .failure(let error):
                bytes.append(contentsOf: try JSONEncoder().encode(error))
            }
        }
        bytes.append(static: "]}")
        return ByteBuffer(bytes: bytes)
    }

    private static func writeZoneID(_ zoneID: MarkSyncZoneID, to bytes: inout [UInt8]) {
        bytes.append(static: "{\"zoneName\":")
        JSONString.write(zoneID.zoneName, escapingSlashes: true, to: &bytes)
        if let owner = zoneID.ownerRecordName {
            bytes.append(static: ",\"ownerRecordName\":")
            JSONString.write(owner, escapingSlashes: true, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private static func writeRecord(_ record: MarkSyncRecord, to bytes: inout [UInt8]) throws {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        func key(_ name: StaticString, _ bytes: inout [UInt8]) {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes.append(static: name)
        }
        if let name = record.recordName { key("\"recordName\":", &bytes); JSONString.write(name, escapingSlashes: true, to: &bytes) }
        if let type = record.recordType { key("\"recordType\":", &bytes); JSONString.write(type, escapingSlashes: true, to: &bytes) }
        if let tag = record.recordChangeTag { key("\"recordChangeTag\":", &bytes); JSONString.write(tag, escapingSlashes: true, to: &bytes) }
        if let fields = record.fields {
            key("\"fields\":", &bytes)
            bytes.append(UInt8(ascii: "{"))
            for (index, (name, field)) in fields.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONString.write(name, escapingSlashes: true, to: &bytes)
                bytes.append(static: ":{\"value\":")
                try writeValue(field.value, to: &bytes)
                if let type = field.type {
                    bytes.append(static: ",\"type\":")
                    JSONString.write(type, escapingSlashes: true, to: &bytes)
                }
                bytes.append(UInt8(ascii: "}"))
            }
            bytes.append(UInt8(ascii: "}"))
        }
        if let created = record.created { key("\"created\":", &bytes); writeStamp(created, to: &bytes) }
        if let modified = record.modified { key("\"modified\":", &bytes); writeStamp(modified, to: &bytes) }
        if let deleted = record.deleted { key("\"deleted\":", &bytes); writeBool(deleted, to: &bytes) }
        bytes.append(UInt8(ascii: "}"))
    }

    private static func writeStamp(_ stamp: MarkSyncRecordStamp, to bytes: inout [UInt8]) {
        bytes.append(static: "{\"timestamp\":")
        JSONNumber.write(stamp.timestamp, to: &bytes)
        if let user = stamp.userRecordName {
            bytes.append(static: ",\"userRecordName\":")
            JSONString.write(user, escapingSlashes: true, to: &bytes)
        }
        if let device = stamp.deviceID {
            bytes.append(static: ",\"deviceID\":")
            JSONString.write(device, escapingSlashes: true, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private static func writeValue(_ value: MarkSyncValue, to bytes: inout [UInt8]) throws {
        switch value {
        case .string(let string): JSONString.write(string, escapingSlashes: true, to: &bytes)
        case .integer(let integer): JSONNumber.write(integer, to: &bytes)
        case .double: bytes.append(contentsOf: try JSONEncoder().encode(value))
        case .bool(let flag): writeBool(flag, to: &bytes)
        case .null: bytes.append(static: "null")
        case .list(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try writeValue(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, (name, element)) in members.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONString.write(name, escapingSlashes: true, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try writeValue(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static func writeBool(_ flag: Bool, to bytes: inout [UInt8]) {
        if flag { bytes.append(static: "true") } else { bytes.append(static: "false") }
    }
}

private extension Array where Element == UInt8 {
    /// Appends the bytes of `text`.
    mutating func append(static text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }
}
