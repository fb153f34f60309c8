/// What a lenient decode had to default: a field that was out of range or not understood gets a
/// default (or its element is left out), the rest of the line or file is kept, and this says so.
struct FieldNotes: Sendable, Equatable {
    /// How many fields were defaulted or elements left out.
    private(set) var count = 0
    /// The first few of them, for the user.
    private(set) var examples: [String] = []

    /// Records one defaulted field or left-out element.
    mutating func add(_ note: String) {
        count += 1
        if examples.count < 3 { examples.append(note) }
    }

    /// Adds the notes of a nested decode.
    mutating func merge(_ other: FieldNotes) {
        count += other.count
        examples += other.examples.prefix(max(0, 3 - examples.count))
    }

    /// Whether nothing had to be defaulted.
    var isEmpty: Bool { count == 0 }

    /// One line for the user, e.g. "2 field(s) not understood and defaulted: video x: duration …".
    var summary: String {
        "\(count) field(s) not understood were given a default or left out (\(examples.joined(separator: "; "))\(count > examples.count ? "; …" : ""))"
    }
}
