import MeTubeCore

/// The store files that description references point into, so a write can copy a description
/// from where it lies (as its JSON literal, unchanged) without holding the text in memory.
struct DescriptionLiterals: Sendable {
    /// The open files, by number.
    var files: [UInt32: StoreFile]

    /// No files: for libraries that hold their descriptions as text.
    static let none = DescriptionLiterals(files: [:])

    /// The JSON string literal `reference` points at.
    func literal(_ reference: DescriptionReference) throws(StoreError) -> [UInt8] {
        try file(of: reference).literal(reference)
    }

    /// The text `reference` points at.
    func text(_ reference: DescriptionReference) throws(StoreError) -> String {
        try file(of: reference).text(reference)
    }

    private func file(of reference: DescriptionReference) throws(StoreError) -> StoreFile {
        guard let file = files[reference.file] else {
            throw .corrupt(path: "description file \(reference.file)", reason: "a description refers to a file the store does not hold open")
        }
        return file
    }
}
