/// Where a video's description lies in one of the store's files: the byte range of its JSON string
/// literal (quotes included) in the file the store numbered `file`.
///
/// The in-memory library keeps this instead of the text (a description is about a kilobyte, a
/// library holds hundreds of thousands); the store reads the text on demand. Only the store that
/// made a reference can resolve it.
public struct DescriptionReference: Sendable, Hashable {
    /// The store's number for the file (unique within the process).
    public var file: UInt32
    /// The literal's length in bytes.
    public var length: UInt32
    /// The literal's first byte (its opening quote) in the file.
    public var offset: UInt64

    /// Creates a reference.
    public init(file: UInt32, offset: UInt64, length: UInt32) {
        self.file = file
        self.offset = offset
        self.length = length
    }
}
