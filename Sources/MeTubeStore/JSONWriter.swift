import Foundation
import MeTubeCore
import MeTubeJSON

/// Writes JSON through a bounded buffer: each time the buffer fills, its bytes go to the output
/// (a snapshot's temporary file), so a document of any size costs no more memory than the
/// buffer. Optional fields that are `nil` are left out, as `JSONEncoder` does.
///
/// The writing methods do not throw: the first failure of the output is kept, later bytes are
/// dropped, and ``finish()`` throws it.
struct JSONWriter {
    /// Takes the next bytes of the document, in order; returns why they could not be written.
    typealias Output = (UnsafeRawBufferPointer) -> StoreError?

    /// The buffer snapshots are written through: large enough that a write is a few hundred
    /// system calls for the largest library, small beside the library itself.
    static let defaultBufferSize = 512 << 10

    private var bytes: [UInt8] = []
    private let bufferSize: Int
    private let output: Output
    private var failure: StoreError?
    private var needsComma = false
    private var flushedCount = 0

    /// How many bytes of the document have been written so far (flushed or buffered).
    var offset: Int { flushedCount + bytes.count }

    /// A writer handing its bytes to `output` in pieces of `bufferSize` bytes (the last one
    /// shorter).
    init(bufferSize: Int = Self.defaultBufferSize, output: @escaping Output) {
        self.bufferSize = max(1, bufferSize)
        self.output = output
        bytes.reserveCapacity(min(self.bufferSize, Self.defaultBufferSize))
    }

    /// A writer appending to the open file `fd`; a failed write is reported against `path`.
    init(fd: Int32, path: String, bufferSize: Int = Self.defaultBufferSize) {
        self.init(bufferSize: bufferSize) { chunk in
            FileIO.writeAll(fd, chunk).map { .writeFailed(path: path, reason: errnoText($0)) }
        }
    }

    /// Hands the rest of the buffer to the output; throws the output's first failure.
    mutating func finish() throws(StoreError) {
        flush()
        if let failure { throw failure }
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        put(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        put(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<Element>(_ elements: some Sequence<Element>, _ body: (inout JSONWriter, Element) -> Void) {
        put(UInt8(ascii: "["))
        needsComma = false
        for element in elements {
            if needsComma { put(UInt8(ascii: ",")) }
            body(&self, element)
        }
        put(UInt8(ascii: "]"))
        needsComma = true
    }

    mutating func key(_ name: String) {
        if needsComma { put(UInt8(ascii: ",")) }
        string(name)
        put(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func field(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
        needsComma = true
    }

    mutating func field(_ name: String, _ value: (some BinaryInteger)?) {
        guard let value else { return }
        key(name)
        put(String(value).utf8)
        needsComma = true
    }

    mutating func field(_ name: String, _ value: Double) {
        let value = StoreCoding.writable(value)
        key(name)
        put((value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)").utf8)
        needsComma = true
    }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        put((value ? "true" : "false").utf8)
        needsComma = true
    }

    /// Writes `json`, a complete JSON value encoded elsewhere (after a ``key(_:)``, or as the
    /// whole document).
    mutating func encoded(_ json: Data) {
        json.withUnsafeBytes { put($0.bindMemory(to: UInt8.self)) }
        needsComma = true
    }

    /// Writes `name` and a list of strings (left out when `nil`).
    mutating func field(_ name: String, _ values: [String]?) {
        guard let values else { return }
        key(name)
        array(values) { writer, value in writer.stringValue(value) }
    }

    /// Writes `literal`, a JSON string literal (quotes included) read back from a store file as
    /// it was written there.
    mutating func literal(_ literal: [UInt8]) {
        literal.withUnsafeBufferPointer { put($0) }
        needsComma = true
    }

    /// Writes `value` as a JSON string.
    mutating func stringValue(_ value: String) {
        string(value)
        needsComma = true
    }

    /// Records `error` as the writer's failure (the first one is kept and thrown by ``finish()``).
    mutating func fail(_ error: StoreError) {
        if failure == nil { failure = error }
    }

    mutating func timestamp(_ value: HybridTimestamp) {
        object {
            $0.field("counter", value.counter)
            $0.field("millis", value.millis)
        }
    }

    /// A playback position as `JSONEncoder` would write it (sorted keys, no nil fields).
    mutating func position(_ position: PlaybackPosition) {
        object {
            $0.field("deviceID", position.deviceID)
            if let duration = position.duration { $0.field("duration", duration) }
            $0.key("hlc")
            $0.timestamp(position.hlc)
            $0.field("seconds", position.seconds)
            $0.field("syncState", position.syncState.rawValue)
            $0.field("videoID", position.videoID)
        }
    }

    /// A watch-later queue entry as `JSONEncoder` would write it (sorted keys, no nil fields).
    mutating func queueEntry(_ entry: QueueEntry) {
        object {
            $0.field("deviceID", entry.deviceID)
            $0.key("hlc")
            $0.timestamp(entry.hlc)
            if let queuedAt = entry.queuedAt { $0.field("queuedAt", queuedAt) }
            $0.field("syncState", entry.syncState.rawValue)
            $0.field("videoID", entry.videoID)
        }
    }

    mutating func serverVersion(_ name: String, _ version: ServerVersion?) {
        guard let version else { return }
        key(name)
        object {
            $0.field("changeTag", version.changeTag)
            $0.field("status", version.status.rawValue)
            if let hlc = version.hlc {
                $0.key("hlc")
                $0.timestamp(hlc)
            }
            $0.field("deviceID", version.deviceID)
        }
    }

    private mutating func string(_ value: String) {
        JSONString.write(value, to: &self)
    }

    private mutating func put(_ sequence: some Sequence<UInt8>) {
        for byte in sequence { put(byte) }
    }

    /// Appends `run`, handing the buffer to the output each time it fills.
    private mutating func put(_ run: UnsafeBufferPointer<UInt8>) {
        var rest = run[...]
        while !rest.isEmpty {
            let count = min(rest.count, bufferSize - bytes.count)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: rest.prefix(count)))
            rest = rest.dropFirst(count)
            if bytes.count >= bufferSize { flush() }
        }
    }

    /// Appends one byte, handing the buffer to the output when it is full (so the pieces are cut
    /// anywhere, inside a string or an escape too).
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        bytes.append(byte)
        if bytes.count >= bufferSize { flush() }
    }

    private mutating func flush() {
        guard !bytes.isEmpty else { return }
        if failure == nil { failure = bytes.withUnsafeBytes(output) }
        flushedCount += bytes.count
        bytes.removeAll(keepingCapacity: true)
    }
}

extension JSONWriter: JSONByteSink {
    /// Appends `bytes`, handing the buffer to the output each time it fills.
    mutating func writeJSONBytes(_ bytes: UnsafeBufferPointer<UInt8>) { put(bytes) }

    /// Appends one byte.
    mutating func writeJSONByte(_ byte: UInt8) { put(byte) }
}
