import Foundation

/// Writes JSON through a bounded buffer: each time the buffer fills, its bytes go to the output
/// (a file, a growing array), so a document of any size costs no more memory than the buffer.
/// Strings and numbers are written as `JSONEncoder` writes them (``JSONString``, no `\/`), and
/// optional fields that are `nil` are left out, as `JSONEncoder` does. The store writes its
/// snapshot files and journal lines through it.
///
/// The writing methods do not throw: the first failure of the output (or one recorded with
/// ``fail(_:)``) is kept, later bytes are dropped, and ``finish()`` throws it. `Failure` is the
/// output's own error type, so its caller sees its failures as they are.
///
/// Inlinable throughout: the store's snapshot writing is the writer's hot loop, one call per
/// byte run, and must be specialized in the module that calls it.
public struct JSONWriter<Failure: Error> {
    /// Takes the next bytes of the document, in order; returns why they could not be written.
    public typealias Output = (UnsafeRawBufferPointer) -> Failure?

    /// The buffer size when none is given: large enough that writing the largest library is a
    /// few hundred calls of the output, small beside the library itself.
    @inlinable
    public static var defaultBufferSize: Int { 512 << 10 }

    @usableFromInline var bytes: [UInt8] = []
    @usableFromInline let bufferSize: Int
    @usableFromInline let output: Output
    @usableFromInline var failure: Failure?
    @usableFromInline var needsComma = false
    @usableFromInline var flushedCount = 0

    /// How many bytes of the document have been written so far (flushed or buffered).
    @inlinable
    public var offset: Int { flushedCount + bytes.count }

    /// A writer handing its bytes to `output` in pieces of `bufferSize` bytes (the last one
    /// shorter).
    @inlinable
    public init(bufferSize: Int = Self.defaultBufferSize, output: @escaping Output) {
        self.bufferSize = max(1, bufferSize)
        self.output = output
        bytes.reserveCapacity(min(self.bufferSize, Self.defaultBufferSize))
    }

    /// Hands the rest of the buffer to the output; throws the output's first failure.
    @inlinable
    public mutating func finish() throws(Failure) {
        flush()
        if let failure { throw failure }
    }

    /// Writes an object whose members `body` writes.
    @inlinable
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        put(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        put(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes an array of `elements`, each written by `body`.
    @inlinable
    public mutating func array<Element>(_ elements: some Sequence<Element>, _ body: (inout JSONWriter, Element) -> Void) {
        put(UInt8(ascii: "["))
        needsComma = false
        for element in elements {
            if needsComma { put(UInt8(ascii: ",")) }
            body(&self, element)
        }
        put(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member's name; its value comes next.
    @inlinable
    public mutating func key(_ name: String) {
        if needsComma { put(UInt8(ascii: ",")) }
        string(name)
        put(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes `name` and the string `value` (left out when `nil`).
    @inlinable
    public mutating func field(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
        needsComma = true
    }

    /// Writes `name` and the whole number `value` (left out when `nil`).
    @inlinable
    public mutating func field(_ name: String, _ value: (some BinaryInteger)?) {
        guard let value else { return }
        key(name)
        put(String(value).utf8)
        needsComma = true
    }

    /// Writes `name` and `value` made writable (``JSONNumber/writable(_:)``): a whole value as an
    /// integer below 10¹⁵, any other in Swift's shortest form that reads back the same.
    @inlinable
    public mutating func field(_ name: String, _ value: Double) {
        let value = JSONNumber.writable(value)
        key(name)
        put((value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : "\(value)").utf8)
        needsComma = true
    }

    /// Writes `name` and `value`.
    @inlinable
    public mutating func field(_ name: String, _ value: Bool) {
        key(name)
        put((value ? "true" : "false").utf8)
        needsComma = true
    }

    /// Writes `json`, a complete JSON value encoded elsewhere (after a ``key(_:)``, or as the
    /// whole document).
    @inlinable
    public mutating func encoded(_ json: Data) {
        json.withUnsafeBytes { put($0.bindMemory(to: UInt8.self)) }
        needsComma = true
    }

    /// Writes `name` and a list of strings (left out when `nil`).
    @inlinable
    public mutating func field(_ name: String, _ values: [String]?) {
        guard let values else { return }
        key(name)
        array(values) { writer, value in writer.stringValue(value) }
    }

    /// Writes `literal`, a JSON string literal (quotes included) read back from where it was
    /// written before.
    @inlinable
    public mutating func literal(_ literal: [UInt8]) {
        literal.withUnsafeBufferPointer { put($0) }
        needsComma = true
    }

    /// Writes `value` as a JSON string.
    @inlinable
    public mutating func stringValue(_ value: String) {
        string(value)
        needsComma = true
    }

    /// Records `error` as the writer's failure (the first one is kept and thrown by ``finish()``).
    @inlinable
    public mutating func fail(_ error: Failure) {
        if failure == nil { failure = error }
    }

    @inlinable
    mutating func string(_ value: String) {
        JSONString.write(value, to: &self)
    }

    @inlinable
    mutating func put(_ sequence: some Sequence<UInt8>) {
        for byte in sequence { put(byte) }
    }

    /// Appends `run`, handing the buffer to the output each time it fills.
    @inlinable
    mutating func put(_ run: UnsafeBufferPointer<UInt8>) {
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
    @inlinable @inline(__always)
    mutating func put(_ byte: UInt8) {
        bytes.append(byte)
        if bytes.count >= bufferSize { flush() }
    }

    @inlinable
    mutating func flush() {
        guard !bytes.isEmpty else { return }
        if failure == nil { failure = bytes.withUnsafeBytes(output) }
        flushedCount += bytes.count
        bytes.removeAll(keepingCapacity: true)
    }
}

extension JSONWriter: JSONByteSink {
    /// Appends `bytes`, handing the buffer to the output each time it fills.
    @inlinable
    public mutating func writeJSONBytes(_ bytes: UnsafeBufferPointer<UInt8>) { put(bytes) }

    /// Appends one byte.
    @inlinable
    public mutating func writeJSONByte(_ byte: UInt8) { put(byte) }
}
