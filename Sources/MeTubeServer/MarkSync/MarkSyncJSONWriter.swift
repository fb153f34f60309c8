import Foundation
import MeTubeAPI
import NIOCore

/// Writes the answers of `records/modify` and `changes/zone` straight into a `ByteBuffer`, without
/// `JSONEncoder`, which took about a third of the server's time on these routes under load.
///
/// The JSON means the same as `JSONEncoder`'s (`StatusJSONWriterTests` decodes both and compares
/// them): the same keys, absent optionals left out, strings escaped byte for byte as `JSONEncoder`
/// escapes them (`\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00xx` in lowercase for the other control
/// characters, non-ASCII unescaped). Keys come in declaration order; `JSONEncoder` orders them by
/// hash, differently from run to run, so no client can depend on its order. The rare parts (per-record and
/// per-zone errors, `DOUBLE` values) are written by `JSONEncoder` and spliced in, so a non-finite
/// double still fails the answer as before.
enum MarkSyncJSONWriter {
    /// The `records/modify` answer: `{"records":[…]}`.
    static func records(_ response: MarkSyncRecordsResponse) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(16 + response.records.count * 256)
        buffer.writeStaticString("{\"records\":[")
        for (index, result) in response.records.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            switch result {
            case .success(let record): try writeRecord(record, to: &buffer)
            case .failure(let error): buffer.writeBytes(try JSONEncoder().encode(error))
            }
        }
        buffer.writeStaticString("]}")
        return buffer
    }

    /// The `changes/zone` answer: `{"zones":[…]}`.
    static func zoneChanges(_ response: MarkSyncZoneChangesResponse) throws -> ByteBuffer {
        var buffer = ByteBuffer()
        let records = response.zones.reduce(0) { count, zone in
            if case .success(let changes) = zone { count + changes.records.count } else { count }
        }
        buffer.reserveCapacity(64 + response.zones.count * 128 + records * 256)
        buffer.writeStaticString("{\"zones\":[")
        for (index, zone) in response.zones.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            switch zone {
            case .success(let changes):
                buffer.writeStaticString("{\"zoneID\":")
                writeZoneID(changes.zoneID, to: &buffer)
                buffer.writeStaticString(",\"records\":[")
                for (recordIndex, record) in changes.records.enumerated() {
                    if recordIndex > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                    try writeRecord(record, to: &buffer)
                }
                buffer.writeStaticString("],\"syncToken\":")
                buffer.writeJSONString(changes.syncToken, escapingSlashes: true)
                buffer.writeStaticString(",\"moreComing\":")
                writeBool(changes.moreComing, to: &buffer)
                buffer.writeInteger(UInt8(ascii: "}"))
            case .failure(let error):
                buffer.writeBytes(try JSONEncoder().encode(error))
            }
        }
        buffer.writeStaticString("]}")
        return buffer
    }

    private static func writeZoneID(_ zoneID: MarkSyncZoneID, to buffer: inout ByteBuffer) {
        buffer.writeStaticString("{\"zoneName\":")
        buffer.writeJSONString(zoneID.zoneName, escapingSlashes: true)
        if let owner = zoneID.ownerRecordName {
            buffer.writeStaticString(",\"ownerRecordName\":")
            buffer.writeJSONString(owner, escapingSlashes: true)
        }
        buffer.writeInteger(UInt8(ascii: "}"))
    }

    private static func writeRecord(_ record: MarkSyncRecord, to buffer: inout ByteBuffer) throws {
        buffer.writeInteger(UInt8(ascii: "{"))
        var first = true
        func key(_ name: StaticString, _ buffer: inout ByteBuffer) {
            if !first { buffer.writeInteger(UInt8(ascii: ",")) }
            first = false
            buffer.writeStaticString(name)
        }
        if let name = record.recordName { key("\"recordName\":", &buffer); buffer.writeJSONString(name, escapingSlashes: true) }
        if let type = record.recordType { key("\"recordType\":", &buffer); buffer.writeJSONString(type, escapingSlashes: true) }
        if let tag = record.recordChangeTag { key("\"recordChangeTag\":", &buffer); buffer.writeJSONString(tag, escapingSlashes: true) }
        if let fields = record.fields {
            key("\"fields\":", &buffer)
            buffer.writeInteger(UInt8(ascii: "{"))
            for (index, (name, field)) in fields.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                buffer.writeJSONString(name, escapingSlashes: true)
                buffer.writeStaticString(":{\"value\":")
                try writeValue(field.value, to: &buffer)
                if let type = field.type {
                    buffer.writeStaticString(",\"type\":")
                    buffer.writeJSONString(type, escapingSlashes: true)
                }
                buffer.writeInteger(UInt8(ascii: "}"))
            }
            buffer.writeInteger(UInt8(ascii: "}"))
        }
        if let created = record.created { key("\"created\":", &buffer); writeStamp(created, to: &buffer) }
        if let modified = record.modified { key("\"modified\":", &buffer); writeStamp(modified, to: &buffer) }
        if let deleted = record.deleted { key("\"deleted\":", &buffer); writeBool(deleted, to: &buffer) }
        buffer.writeInteger(UInt8(ascii: "}"))
    }

    private static func writeStamp(_ stamp: MarkSyncRecordStamp, to buffer: inout ByteBuffer) {
        buffer.writeStaticString("{\"timestamp\":")
        buffer.writeString(String(stamp.timestamp))
        if let user = stamp.userRecordName {
            buffer.writeStaticString(",\"userRecordName\":")
            buffer.writeJSONString(user, escapingSlashes: true)
        }
        if let device = stamp.deviceID {
            buffer.writeStaticString(",\"deviceID\":")
            buffer.writeJSONString(device, escapingSlashes: true)
        }
        buffer.writeInteger(UInt8(ascii: "}"))
    }

    private static func writeValue(_ value: MarkSyncValue, to buffer: inout ByteBuffer) throws {
        switch value {
        case .string(let string): buffer.writeJSONString(string, escapingSlashes: true)
        case .integer(let integer): buffer.writeString(String(integer))
        case .double: buffer.writeBytes(try JSONEncoder().encode(value))
        case .bool(let flag): writeBool(flag, to: &buffer)
        case .null: buffer.writeStaticString("null")
        case .list(let values):
            buffer.writeInteger(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                try writeValue(element, to: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "]"))
        case .object(let members):
            buffer.writeInteger(UInt8(ascii: "{"))
            for (index, (name, element)) in members.enumerated() {
                if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
                buffer.writeJSONString(name, escapingSlashes: true)
                buffer.writeInteger(UInt8(ascii: ":"))
                try writeValue(element, to: &buffer)
            }
            buffer.writeInteger(UInt8(ascii: "}"))
        }
    }

    private static func writeBool(_ flag: Bool, to buffer: inout ByteBuffer) {
        if flag { buffer.writeStaticString("true") } else { buffer.writeStaticString("false") }
    }
}
